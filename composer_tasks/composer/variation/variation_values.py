"""`evaluate`: every variation or callable inside a nested structure replaced by
its value (dm_control's `composer.variation.variation_values`)."""

from composer_tasks.composer.variation.base import evaluate

__all__ = ["evaluate"]
