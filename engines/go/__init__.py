"""Go: reference rules, C core binding, GTP adapter."""
