"""Motion-capture trajectories in dm_control's HDF5 format, and what is built from them.

`loader.HDF5TrajectoryLoader` reads the files dm_control's CMU data comes in
(`cmu_mocap_data.get_path_for_cmu`), `trajectory.Trajectory` slices one clip into
per-step arrays, `props.Prop` builds the props a clip carries, and `walkers`
matches a walker to the clip (its rescaling, markers and root frame). The file
format needs h5py (`pip install "composer-tasks[mocap]"`), imported only when a
file is opened.
"""
