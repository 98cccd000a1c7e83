"""mjcf_models package."""
