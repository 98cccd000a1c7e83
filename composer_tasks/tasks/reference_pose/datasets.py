"""The named clip collections a reference-pose task accepts by name (dm_control's
`locomotion.tasks.reference_pose.datasets`): `DATASETS` maps each name to its
`types.ClipCollection`."""

from composer_tasks.tasks.reference_pose import cmu_subsets

DATASETS = dict(cmu_subsets.CMU_SUBSETS_DICT)
