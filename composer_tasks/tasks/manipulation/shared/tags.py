"""Tags of the manipulation task registry (dm-control 1.0.50, manipulation/shared/tags.py)."""

FEATURES = "features"  # Observations are ground-truth features (prop poses).
VISION = "vision"  # Observations include camera images.
EASY = "easy"  # The easier tasks.
