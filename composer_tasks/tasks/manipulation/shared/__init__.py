"""dm_control's `manipulation.shared` building blocks, for writing manipulation tasks
as dm_control's own are written: observation settings, cameras, the arm and hand,
workspace sites, the task registry and its tags.

`from dm_control.manipulation.shared import observations, robots, workspaces`
comes across as `from composer_tasks.tasks.manipulation.shared import ...`
(`composer_tasks.porting` maps it). The manipulation tasks here
(`composer_tasks.tasks.manipulation`) are built from the same definitions.
"""
