"""The dialect itself: definition, custom syntax, verifier and builders."""
