"""Wrappers around environments: Gymnasium adapters (`composer_tasks.wrappers.gymnasium`)."""
