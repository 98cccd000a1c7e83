"""Reference-pose (motion-capture tracking) tasks: dm_control's
`locomotion.tasks.reference_pose`.

`tracking.MultiClipMocapTracking` rewards a walker for following clips of
motion-capture data (`composer_tasks.mocap`), `tracking.PlaybackTask` replays
them; `types.ClipCollection` names the clips, `datasets.DATASETS` (the CMU subsets
of `cmu_subsets`) gives collections by name, `rewards` the reward functions and
`utils` the helpers that pose a walker from a clip's features. docs/locomotion.md
("Motion-capture tracking") says what data they need and where to get it.
"""
