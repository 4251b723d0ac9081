"""Clean-up passes that keep mesh IR small between the big phases."""
