"""Sharding rules: ops described as loop nests, the two algorithms that turn
tensor shardings into a loop sharding and back (`rules`, pure Python), and
the rules of upstream and HLO ops (`registry`), and the choice of one op's
loop sharding from the annotations around it (`choice`)."""

from .choice import Choice, Request, choose
from .registry import RuleCache, RuleError, RuleFn, register_rule, registered_names, rule_for
from .rules import (
    INVALID,
    LOOP_REDUCTION_KINDS,
    PARALLEL,
    Conflict,
    Iterator,
    ShardingOption,
    ShardingRule,
    TensorMap,
    option_from_lists,
    option_from_requests,
    option_from_shardings,
    option_to_lists,
    shardings_from_option,
    validate_option,
)

__all__ = [
    "Choice",
    "Request",
    "choose",
    "INVALID",
    "LOOP_REDUCTION_KINDS",
    "PARALLEL",
    "Conflict",
    "Iterator",
    "RuleError",
    "RuleFn",
    "ShardingOption",
    "ShardingRule",
    "TensorMap",
    "option_from_lists",
    "option_from_requests",
    "option_from_shardings",
    "option_to_lists",
    "register_rule",
    "registered_names",
    "rule_for",
    "RuleCache",
    "shardings_from_option",
    "validate_option",
]
