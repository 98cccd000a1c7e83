"""Motion-capture tracking tasks (dm_control's
`locomotion.tasks.reference_pose.tracking`, dm-control 1.0.50; Hasenclever et al.
2020, "CoMic: Complementary Task Learning & Mimicry for Reusable Skills").

A `ReferencePosesTask` loads clips of a `types.ClipCollection` from an HDF5 file
(`composer_tasks.mocap.loader`), and at each episode draws a clip and a start step
from the task's random state (all steps of all clips that leave `min_steps` steps
and the look-ahead `ref_steps`, weighted by their clip's weight; or the clip
starts only), poses the walker (and props) as the clip at that step, and steps at
the clip's `dt`. The walker's observables gain the reference: for each look-ahead
step t + k, k in `ref_steps`, the clip's joints, bodies and root relative to the
walker's (`reference_rel_*`), the reference's body orientations relative to its
root (`reference_ego_bodies_quats`), its appendages, and the clip's root
velocities (`velocimeter_control`, `gyro_control`, `joints_vel_control`) and
`clip_id`. The episode ends when the clip ends or the tracking error
(0.5 x mean joint error (rad) + 0.5 x multiplier x mean body position error (m))
exceeds `termination_error_threshold` (discount 0 then).

`MultiClipMocapTracking` adds the reward (`rewards.get_reward(reward_type)`) and
`time_in_clip`; `PlaybackTask` replays the clips one after another.

Frames: "global" observations are world-frame differences; "local" ones are
rotated into the walker's egocentric frame (`transform_vec_to_egocentric_frame`),
the root body's frame: for the CMU humanoids the CMU pelvis frame, as in
dm_control. Features (`utils.get_features`) use the clip's conventions.
"""

from __future__ import annotations

import abc
import collections
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import mujoco
import numpy as np
from dm_env import specs

from composer_tasks import composer
from composer_tasks.composer.observation import observable as base_observable
from composer_tasks.mocap import loader
from composer_tasks.mocap import transformations as tr
from composer_tasks.tasks.reference_pose import datasets, rewards, types, utils

_log = logging.getLogger(__name__)

# Seconds per physics step (dm_control's default); the control step is the clip's dt.
DEFAULT_PHYSICS_TIMESTEP = 0.005
# Loading every clip to find its length asks for this end step (clipped to the clip).
_MAX_END_STEP = 10000
# Above this tracking error at reset, the walker does not match the clip's data.
_INITIAL_ERROR_LIMIT = 1e-2


def _strip_reference_prefix(
    dictionary: Mapping[str, Any], prefix: str, keep_prefixes: Sequence[str] | None = None
) -> dict[str, Any]:
    """The entries whose key starts with `prefix`, under the key without it (the
    text after its first occurrence), and those starting with one of
    `keep_prefixes` unchanged; others are dropped. Values are not copied."""
    stripped = {}
    for key, value in dictionary.items():
        if key.startswith(prefix):
            stripped[key.split(prefix)[1]] = value
        elif any(key.startswith(keep) for keep in keep_prefixes or ()):
            stripped[key] = value
    return stripped


def _at(features: Mapping[str, np.ndarray], step: int) -> dict[str, np.ndarray]:
    return {key: value[step] for key, value in features.items()}


def _mocap_to_observable_joint_order(walker: Any) -> list[int]:
    """dm_control's legacy walker property, computed where a walker here lacks it."""
    order = getattr(walker, "mocap_to_observable_joint_order", None)
    if order is not None:
        return list(order)
    mocap = [joint.spec_element for joint in walker.mocap_joints]
    return [mocap.index(joint.spec_element) for joint in walker.observable_joints]


def _actuator_force(walker: Any, physics: Any) -> np.ndarray:
    """dm_control's legacy `actuator_force`: the observable joints' qfrc_actuator."""
    if hasattr(walker, "actuator_force"):
        return np.asarray(walker.actuator_force(physics))
    return np.asarray(physics.bind(walker.observable_joints).qfrc_actuator)


class _KeepTrackingPose:
    """A walker initializer that re-applies the task's reference pose.

    Walkers here reset their joints in their own `initialize_episode`, which runs
    after the task's (dm_control's walkers leave the pose alone); this initializer
    runs last in that reset and restores the clip's pose (the ghost's, for the
    ghost), drawing nothing.
    """

    def __init__(self, task: ReferencePosesTask, ghost: bool = False) -> None:
        self._task = task
        self._ghost = ghost

    def initialize_pose(self, physics: Any, walker: Any, random_state: Any) -> None:
        del walker, random_state
        if not self._task._pose_set_this_episode:
            return
        if self._ghost:
            self._task._update_ghost(physics)
        else:
            self._task._set_walker(physics)


class ReferencePosesTask(composer.Task, metaclass=abc.ABCMeta):
    """Base class of tasks that follow reference clips.

    Args:
      walker: the walker's constructor (called with `name=`), e.g.
        `walkers.CMUHumanoidPositionControlledV2020`.
      arena: the arena.
      ref_path: the HDF5 file of the clips.
      ref_steps: look-ahead steps of the reference observations (sorted here):
        (1, 2) observes the clip at t+1 and t+2.
      dataset: a `types.ClipCollection`, or a key of `datasets.DATASETS`.
      termination_error_threshold: the tracking error (module docstring) above
        which an episode ends.
      prop_termination_error_threshold: the mean prop position error (m) above
        which an episode ends.
      min_steps: the fewest steps an episode may have (limits the start steps).
      reward_type: a key of `rewards.REWARD_FN`.
      physics_timestep: seconds per physics step.
      always_init_at_clip_start: start episodes at clip starts only.
      proto_modifier: modifier(s) applied to each loaded clip (`mocap.loader`).
      prop_factory: makes a prop from a clip's prop record (`mocap.props.Prop`).
      disable_props: build no props even with `prop_factory`.
      ghost_offset: if given, a ghost walker (and props) shows the reference,
        offset by this (m).
      body_error_multiplier: weight of the body error in the tracking error.
      actuator_force_coeff: coefficient of the `actuator_force` reward channel.
      enabled_reference_observables: if given, of the walker observables existing
        when the reference ones are added, only these (full names, e.g.
        "walker/reference_rel_joints") are enabled.

    Raises:
      KeyError: `dataset` names no dataset.
      ValueError: the walker does not match the clips (tracking error above 0.01
        after posing it at reset).
    """

    def __init__(
        self,
        walker: Callable[..., Any],
        arena: composer.Arena,
        ref_path: str,
        ref_steps: Sequence[int],
        dataset: str | types.ClipCollection,
        termination_error_threshold: float = 0.3,
        prop_termination_error_threshold: float = 0.1,
        min_steps: int = 10,
        reward_type: str = "termination_reward",
        physics_timestep: float = DEFAULT_PHYSICS_TIMESTEP,
        always_init_at_clip_start: bool = False,
        proto_modifier: Any = None,
        prop_factory: Any = None,
        disable_props: bool = False,
        ghost_offset: Sequence[float] | None = None,
        body_error_multiplier: float = 1.0,
        actuator_force_coeff: float = 0.015,
        enabled_reference_observables: Sequence[str] | None = None,
    ) -> None:
        self._ref_steps = np.sort(ref_steps)
        self._max_ref_step = self._ref_steps[-1]
        self._termination_error_threshold = termination_error_threshold
        self._prop_termination_error_threshold = prop_termination_error_threshold
        self._reward_fn = rewards.get_reward(reward_type)
        self._reward_keys = rewards.get_reward_channels(reward_type)
        self._min_steps = min_steps
        self._always_init_at_clip_start = always_init_at_clip_start
        self._ghost_offset = ghost_offset
        self._body_error_multiplier = body_error_multiplier
        self._actuator_force_coeff = actuator_force_coeff
        self._pose_set_this_episode = False
        _log.info("Reward type %s", reward_type)

        if isinstance(dataset, str):
            if dataset not in datasets.DATASETS:
                raise KeyError(
                    f"dataset {dataset!r} is not in datasets.DATASETS ({sorted(datasets.DATASETS)})"
                )
            dataset = datasets.DATASETS[dataset]
        self._load_reference_data(ref_path=ref_path, proto_modifier=proto_modifier, dataset=dataset)
        self._get_possible_starts()
        _log.info("%d starting points found.", len(self._possible_starts))

        # A first clip, for the props and the observation shapes before any reset.
        self._current_clip_index = 0
        self._current_clip = self._loader.get_trajectory(
            self._dataset.ids[0], zero_out_velocities=False
        )
        self._arena = arena
        self._walker = utils.add_walker(walker, self._arena)
        self._walker.add_initializer(_KeepTrackingPose(self))
        self.set_timesteps(
            physics_timestep=physics_timestep, control_timestep=self._current_clip.dt
        )

        walker_bodies = self._walker.mocap_tracking_bodies
        body_names = [body.name for body in walker_bodies]
        # dm_control's index of each tracking body in its own list: all of them.
        self._body_idxs = np.array([body_names.index(name) for name in body_names])
        self._observable_joint_order = _mocap_to_observable_joint_order(self._walker)

        self._prop_factory = prop_factory
        self._props: tuple | list = (
            [] if disable_props else self._current_clip.create_props(prop_factory=prop_factory)
        )
        for prop in self._props:
            self._arena.add_free_entity(prop)

        self._add_observables(enabled_reference_observables)

        self._time_step = 0
        self._current_start_time = 0.0
        self._last_step = 0
        self._current_clip_index = 0
        self._reference_observations: dict[str, Any] = {}
        self._end_mocap = False
        self._should_truncate = False
        self._termination_error = 0.0
        self._prop_termination_error = 0.0

        self._prop_prefixes: list[str] = []
        self._disable_props = disable_props
        if not disable_props:
            if len(self._props) == 1:
                self._prop_prefixes.append("prop/")
            else:
                self._prop_prefixes += [f"prop_{i}/" for i in range(len(self._props))]
        self._clip_reference_features = self._current_clip.as_dict()
        self._strip_reference_prefix()

        self._walker_joints = self._clip_reference_features["joints"][0]
        self._walker_features = _at(self._clip_reference_features, 0)
        self._walker_features_prev = _at(self._clip_reference_features, 0)

        self._current_reference_features: dict[str, Any] = {}
        self._reference_ego_bodies_quats: dict[int, dict[int, list]] = collections.defaultdict(dict)
        self._ghost_props: tuple | list = []
        if self._ghost_offset is not None:
            self._ghost = utils.add_walker(walker, self._arena, name="ghost", ghost=True)
            self._ghost.add_initializer(_KeepTrackingPose(self, ghost=True))
            self._ghost.observables.disable_all()
            if not disable_props:
                self._ghost_props = self._current_clip.create_props(
                    prop_factory=self._ghost_prop_factory
                )
                for prop in self._ghost_props:
                    self._arena.add_free_entity(prop)
                    prop.observables.disable_all()

        self._reset_reward_channels()

    def _strip_reference_prefix(self) -> None:
        self._clip_reference_features = _strip_reference_prefix(
            self._clip_reference_features, "walker/", keep_prefixes=self._prop_prefixes
        )
        positions, quaternions = [], []
        for prefix in self._prop_prefixes:
            positions.append(self._clip_reference_features.pop(f"{prefix}position"))
            quaternions.append(self._clip_reference_features.pop(f"{prefix}quaternion"))
        if self._prop_prefixes:
            # Stored per prop over time; observed per time over props.
            self._clip_reference_features["prop_positions"] = np.transpose(positions, (1, 0, 2))
            self._clip_reference_features["prop_quaternions"] = np.transpose(quaternions, (1, 0, 2))

    def _ghost_prop_factory(self, prop_proto: Any, priority_friction: bool = False) -> Any:
        if self._prop_factory is None:
            return None
        prop = self._prop_factory(prop_proto, priority_friction=priority_friction)
        for geom in prop.mjcf_model.find_all("geom"):
            geom.set_attributes(contype=0, conaffinity=0, rgba=(0.5, 0.5, 0.5, 0.999))
        prop.observables.disable_all()
        return prop

    def _load_reference_data(
        self, ref_path: str, proto_modifier: Any, dataset: types.ClipCollection
    ) -> None:
        self._loader = loader.HDF5TrajectoryLoader(ref_path, proto_modifier=proto_modifier)
        self._dataset = dataset
        self._num_clips = len(self._dataset.ids)
        if self._dataset.end_steps is None:
            # The clips' lengths set the sampling distribution: load them all.
            self._all_clips: list = [
                self._loader.get_trajectory(clip_id, start_step=start, end_step=_MAX_END_STEP)
                for clip_id, start in zip(self._dataset.ids, self._dataset.start_steps or ())
            ]
            self._dataset.end_steps = tuple(clip.end_step for clip in self._all_clips)
        else:
            self._all_clips = [None] * self._num_clips

    def _add_observables(self, enabled_reference_observables: Sequence[str] | None) -> None:
        walker_observables = self._walker.observables

        def reference(key: str) -> base_observable.Generic:
            return base_observable.Generic(lambda _: self._reference_observations[key])

        for name in (
            "reference_rel_joints",
            "reference_rel_bodies_pos_global",
            "reference_rel_bodies_quats",
            "reference_rel_bodies_pos_local",
            "reference_ego_bodies_quats",
            "reference_rel_root_quat",
            "reference_rel_root_pos_local",
        ):
            walker_observables.add_observable(name, reference(f"walker/{name}"))
        walker_observables.add_observable(
            "reference_appendages_pos", base_observable.Generic(self.get_reference_appendages_pos)
        )
        if enabled_reference_observables:
            for name, item in self.observables.items():
                item.enabled = name in enabled_reference_observables
        walker_observables.add_observable("clip_id", base_observable.Generic(self.get_clip_id))
        walker_observables.add_observable(
            "velocimeter_control", base_observable.Generic(self.get_veloc_control)
        )
        walker_observables.add_observable(
            "gyro_control", base_observable.Generic(self.get_gyro_control)
        )
        walker_observables.add_observable(
            "joints_vel_control", base_observable.Generic(self.get_joints_vel_control)
        )
        self._arena.observables.add_observable(
            "reference_props_pos_global",
            base_observable.Generic(self.get_reference_props_pos_global),
        )
        self._arena.observables.add_observable(
            "reference_props_quat_global",
            base_observable.Generic(self.get_reference_props_quat_global),
        )
        for item in [
            *walker_observables.proprioception,
            *walker_observables.kinematic_sensors,
            *walker_observables.dynamic_sensors,
        ]:
            item.enabled = True
        for prop in self._props:
            prop.observables.position.enabled = True
            prop.observables.orientation.enabled = True

    def _get_possible_starts(self) -> None:
        """Every (clip index, start step) an episode may start at, and its probability."""
        starts, weights = [], []
        dataset = self._dataset
        for clip_number, (start, end, weight) in enumerate(
            zip(dataset.start_steps or (), dataset.end_steps or (), dataset.weights or ())
        ):
            # The clip's length less the look-ahead less the shortest episode.
            last_possible_start = end - self._max_ref_step - self._min_steps
            if self._always_init_at_clip_start:
                starts.append((clip_number, start))
                weights.append(weight)
            else:
                steps = range(start, last_possible_start)
                starts += [(clip_number, step) for step in steps]
                weights += [weight] * len(steps)
        self._possible_starts = starts
        self._start_probabilities = np.array(weights) / np.sum(weights)

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        """Draws the episode's clip and start; rebuilds the props for that clip."""
        regenerate = getattr(self._arena, "regenerate", None)
        if regenerate is not None:
            regenerate(random_state)
        self._get_clip_to_track(random_state)
        for prop in self._props:
            prop.detach()
        if not self._disable_props:
            self._props = self._current_clip.create_props(prop_factory=self._prop_factory)
            for prop in self._props:
                self._arena.add_free_entity(prop)
                prop.observables.position.enabled = True
                prop.observables.orientation.enabled = True
            if self._ghost_offset is not None:
                for prop in self._ghost_props:
                    prop.detach()
                self._ghost_props = self._current_clip.create_props(
                    prop_factory=self._ghost_prop_factory
                )
                for prop in self._ghost_props:
                    self._arena.add_free_entity(prop)
                    prop.observables.disable_all()

    def _get_clip_to_track(self, random_state: np.random.RandomState) -> None:
        index = random_state.choice(len(self._possible_starts), p=self._start_probabilities)
        clip_index, start_step = self._possible_starts[index]
        self._current_clip_index = clip_index
        self._select_clip(clip_index, start_step)
        self._strip_reference_prefix()
        self._last_step = len(self._clip_reference_features["joints"]) - self._max_ref_step - 1
        _log.info(
            "Mocap %s at step %d with remaining length %d.",
            self._dataset.ids[clip_index],
            start_step,
            self._last_step - start_step,
        )

    def _select_clip(self, clip_index: int, start_step: int) -> None:
        """Loads clip `clip_index` (once) and sets the step counters to `start_step`."""
        clip_id = self._dataset.ids[clip_index]
        clip_start = (self._dataset.start_steps or ())[clip_index]
        if self._all_clips[clip_index] is None:
            _log.info("Loading clip %s", clip_id)
            self._all_clips[clip_index] = self._loader.get_trajectory(
                clip_id,
                start_step=clip_start,
                end_step=(self._dataset.end_steps or ())[clip_index],
                zero_out_velocities=False,
            )
        self._current_clip = self._all_clips[clip_index]
        self._clip_reference_features = self._current_clip.as_dict()
        # The features start at the clip's start step; the time step counts from it.
        self._time_step = start_step - clip_start
        self._current_start_time = (start_step - clip_start) * self._current_clip.dt

    def initialize_episode(self, physics: Any, random_state: np.random.RandomState) -> None:
        """Poses the walker as the clip at the start step and checks that it matches.

        Raises:
          ValueError: the tracking error after posing exceeds 0.01 (the walker does
            not match the clip's data).
        """
        self._set_walker(physics)
        self._pose_set_this_episode = True
        self._walker_features = utils.get_features(physics, self._walker, props=self._props)
        self._walker_features_prev = self._walker_features.copy()
        self._walker_joints = np.array(physics.bind(self._walker.mocap_joints).qpos)
        self._compute_termination_error()
        if self._termination_error > _INITIAL_ERROR_LIMIT:
            raise ValueError(
                "The termination exceeds 1e-2 at initialization. This is likely due to a "
                f"proto/walker mismatch (tracking error {self._termination_error:.4g} with clip "
                f"{self._current_clip.identifier!r} and walker {type(self._walker).__name__})."
            )
        self._update_ghost(physics)
        self._reference_observations.update(self.get_all_reference_observations(physics))
        self._reset_reward_channels()

    def _reset_reward_channels(self) -> None:
        if self._reward_keys:
            self.last_reward_channels: collections.OrderedDict | None = collections.OrderedDict(
                (key, 0.0) for key in self._reward_keys
            )
        else:
            self.last_reward_channels = None

    def _compute_termination_error(self) -> None:
        target_joints = self._clip_reference_features["joints"][self._time_step]
        error_joints = np.mean(np.abs(target_joints - self._walker_joints))
        target_bodies = self._clip_reference_features["body_positions"][self._time_step]
        error_bodies = np.mean(
            np.abs((target_bodies - self._walker_features["body_positions"])[self._body_idxs])
        )
        self._termination_error = (
            0.5 * self._body_error_multiplier * error_bodies + 0.5 * error_joints
        )
        if self._props:
            target_props = self._clip_reference_features["prop_positions"][self._time_step]
            current_props = self._walker_features["prop_positions"]
            self._prop_termination_error = np.mean(
                np.linalg.norm(target_props - current_props, axis=-1)
            )

    def before_step(self, physics: Any, action: Any, random_state: np.random.RandomState) -> None:
        self._walker.apply_action(physics, action, random_state)

    def after_step(self, physics: Any, random_state: np.random.RandomState) -> None:
        del random_state
        self._walker_features_prev = self._walker_features.copy()

    def after_compile(self, physics: Any, random_state: np.random.RandomState) -> None:
        # The observation spec is read before the first reset: give it values.
        if not self._reference_observations:
            self._reference_observations.update(self.get_all_reference_observations(physics))

    def should_terminate_episode(self, physics: Any) -> bool:
        del physics
        if self._should_truncate:
            _log.info("Truncate with error %f.", self._termination_error)
            return True
        if self._end_mocap:
            _log.info("End of mocap.")
            return True
        return False

    def get_discount(self, physics: Any) -> float:
        del physics
        return 0.0 if self._should_truncate else 1.0

    # Reference observations (flattened; look-ahead steps major).

    def _look_ahead(self) -> np.ndarray:
        return self._time_step + self._ref_steps

    def get_reference_rel_joints(self, physics: Any) -> np.ndarray:
        """The clip's joint angles minus the walker's (rad), observable joint order."""
        del physics
        difference = (
            self._clip_reference_features["joints"][self._look_ahead()] - self._walker_joints
        )
        return difference[:, self._observable_joint_order].flatten()

    def get_reference_rel_bodies_pos_global(self, physics: Any) -> np.ndarray:
        """The clip's body positions minus the walker's (m, world frame)."""
        del physics
        difference = (
            self._clip_reference_features["body_positions"][self._look_ahead()]
            - self._walker_features["body_positions"]
        )
        return difference[:, self._body_idxs].flatten()

    def get_reference_rel_bodies_quats(self, physics: Any) -> np.ndarray:
        """Per step and body, the rotation from the walker's body to the clip's."""
        del physics
        reference = self._clip_reference_features["body_quaternions"]
        current = self._walker_features["body_quaternions"]
        differences = [
            tr.quat_diff(current[body], reference[step, body])
            for step in self._look_ahead()
            for body in self._body_idxs
        ]
        return np.concatenate(differences)

    def get_reference_rel_bodies_pos_local(self, physics: Any) -> np.ndarray:
        """`get_reference_rel_bodies_pos_global` in the walker's egocentric frame."""
        difference = (
            self._clip_reference_features["body_positions"][self._look_ahead()]
            - self._walker_features["body_positions"]
        )[:, self._body_idxs]
        local = self._walker.transform_vec_to_egocentric_frame(physics, difference)
        return np.asarray(local).flatten()

    def get_reference_ego_bodies_quats(self, unused_physics: Any) -> np.ndarray:
        """Per step and body, the clip's body orientation relative to the clip's root
        (cached per clip and step)."""
        cache = self._reference_ego_bodies_quats[self._current_clip_index]
        quaternions = self._clip_reference_features["body_quaternions"]
        roots = self._clip_reference_features["quaternion"]
        result = []
        for step in self._look_ahead():
            step = int(step)
            if step not in cache:
                cache[step] = [
                    tr.quat_diff(roots[step], quaternions[step, body]) for body in self._body_idxs
                ]
            result.extend(cache[step])
        return np.concatenate(result)

    def get_reference_rel_root_quat(self, physics: Any) -> np.ndarray:
        """Per step, the rotation from the walker's root to the clip's."""
        del physics
        roots = self._clip_reference_features["quaternion"]
        return np.concatenate(
            [
                tr.quat_diff(self._walker_features["quaternion"], roots[step])
                for step in self._look_ahead()
            ]
        )

    def get_reference_appendages_pos(self, physics: Any) -> np.ndarray:
        """The clip's appendage positions (its root frame, m) at the look-ahead steps."""
        del physics
        return self._clip_reference_features["appendages"][self._look_ahead()].flatten()

    def get_reference_rel_root_pos_local(self, physics: Any) -> np.ndarray:
        """The clip's root position minus the walker's, in the egocentric frame (m)."""
        difference = (
            self._clip_reference_features["position"][self._look_ahead()]
            - self._walker_features["position"]
        )
        local = self._walker.transform_vec_to_egocentric_frame(physics, difference)
        return np.asarray(local).flatten()

    def get_reference_props_pos_global(self, physics: Any) -> Any:
        """The clip's prop positions (m, world) at the look-ahead steps; [] without props."""
        del physics
        if self._props:
            return self._clip_reference_features["prop_positions"][self._look_ahead()].flatten()
        return []

    def get_reference_props_quat_global(self, physics: Any) -> Any:
        """The clip's prop orientations at the look-ahead steps; [] without props."""
        del physics
        if self._props:
            return self._clip_reference_features["prop_quaternions"][self._look_ahead()].flatten()
        return []

    def get_veloc_control(self, physics: Any) -> np.ndarray:
        """The root's velocity over the last control step (m/s), in the previous
        root frame, from the features."""
        del physics
        rotation_prev = tr.quat_to_mat(self._walker_features_prev["quaternion"])
        velocity_world = (
            self._walker_features["position"] - self._walker_features_prev["position"]
        ) / self._control_timestep
        return np.dot(velocity_world, rotation_prev)

    def get_gyro_control(self, physics: Any) -> np.ndarray:
        """The root's angular velocity over the last control step (rad/s), in the
        previous root frame."""
        del physics
        difference = tr.quat_diff(
            self._walker_features_prev["quaternion"], self._walker_features["quaternion"]
        )
        difference = difference / np.linalg.norm(difference)
        return tr.quat_to_axisangle(difference) / self._control_timestep

    def get_joints_vel_control(self, physics: Any) -> np.ndarray:
        """The joints' velocities over the last control step (rad/s), observable order."""
        del physics
        difference = self._walker_features["joints"] - self._walker_features_prev["joints"]
        return difference[self._observable_joint_order] / self._control_timestep

    def get_clip_id(self, physics: Any) -> np.ndarray:
        """The index of the episode's clip in the dataset, (1,)."""
        del physics
        return np.array([self._current_clip_index])

    def get_all_reference_observations(self, physics: Any) -> dict[str, Any]:
        """Every reference observation now, by its full observation name."""
        observations = {
            "walker/reference_rel_bodies_pos_local": self.get_reference_rel_bodies_pos_local(
                physics
            ),
            "walker/reference_rel_joints": self.get_reference_rel_joints(physics),
            "walker/reference_rel_bodies_pos_global": self.get_reference_rel_bodies_pos_global(
                physics
            ),
            "walker/reference_ego_bodies_quats": self.get_reference_ego_bodies_quats(physics),
            "walker/reference_rel_root_quat": self.get_reference_rel_root_quat(physics),
            "walker/reference_rel_bodies_quats": self.get_reference_rel_bodies_quats(physics),
            "walker/reference_rel_root_pos_local": self.get_reference_rel_root_pos_local(physics),
        }
        if self._props:
            observations["props/reference_pos_global"] = self.get_reference_props_pos_global(
                physics
            )
            observations["props/reference_quat_global"] = self.get_reference_props_quat_global(
                physics
            )
        return observations

    def get_reward(self, physics: Any) -> float:
        """The reward function's value; records the reward channels in
        `last_reward_channels` and whether the episode must end."""
        reward, _, reward_channels = self._reward_fn(
            termination_error=self._termination_error,
            termination_error_threshold=self._termination_error_threshold,
            reference_features=self._current_reference_features,
            walker_features=self._walker_features,
            reference_observations=self._reference_observations,
        )
        if "actuator_force" in self._reward_keys and reward_channels is not None:
            reward_channels["actuator_force"] = -self._actuator_force_coeff * np.mean(
                np.square(_actuator_force(self._walker, physics))
            )
        self._should_truncate = self._termination_error > self._termination_error_threshold
        if self._props:
            prop_termination = self._prop_termination_error > self._prop_termination_error_threshold
            self._should_truncate = self._should_truncate or prop_termination
        self.last_reward_channels = reward_channels
        return reward

    def _set_walker(self, physics: Any) -> None:
        features = _at(self._clip_reference_features, self._time_step)
        utils.set_walker_from_features(physics, self._walker, features)
        if self._props:
            utils.set_props_from_features(physics, self._props, features)
        mujoco.mj_kinematics(physics.model, physics.data)

    def _update_ghost(self, physics: Any) -> None:
        if self._ghost_offset is not None:
            target = _at(self._clip_reference_features, self._time_step)
            utils.set_walker_from_features(physics, self._ghost, target, self._ghost_offset)
            if self._ghost_props:
                utils.set_props_from_features(
                    physics, self._ghost_props, target, z_offset=self._ghost_offset
                )
            mujoco.mj_kinematics(physics.model, physics.data)

    def action_spec(self, physics: Any) -> specs.BoundedArray:
        """The walker's actuators only (not a ghost's): bounded by their control
        ranges, +-inf where not control-limited."""
        actuators = self._walker.actuators
        ctrl = physics.bind(actuators).ctrl
        minimum, maximum = [], []
        for actuator in actuators:
            bound = physics.bind(actuator)
            if np.any(bound.ctrllimited):
                low, high = np.ravel(bound.ctrlrange)
                minimum.append(low)
                maximum.append(high)
            else:
                minimum.append(-float("inf"))
                maximum.append(float("inf"))
        return specs.BoundedArray(
            shape=ctrl.shape,
            dtype=ctrl.dtype,
            minimum=np.asarray(minimum, dtype=ctrl.dtype),
            maximum=np.asarray(maximum, dtype=ctrl.dtype),
            name="\t".join(actuator.full_identifier for actuator in actuators),
        )

    @property
    @abc.abstractmethod
    def name(self) -> str:
        raise NotImplementedError

    @property
    def root_entity(self) -> composer.Arena:
        return self._arena


class MultiClipMocapTracking(ReferencePosesTask):
    """Track clips drawn from a collection (`ReferencePosesTask`; props off by
    default), rewarded by `reward_type`; the walker also observes `time_in_clip`.

    Args: as `ReferencePosesTask`, `disable_props` defaulting to True.
    """

    def __init__(
        self,
        walker: Callable[..., Any],
        arena: composer.Arena,
        ref_path: str,
        ref_steps: Sequence[int],
        dataset: str | types.ClipCollection,
        termination_error_threshold: float = 0.3,
        prop_termination_error_threshold: float = 0.1,
        min_steps: int = 10,
        reward_type: str = "termination_reward",
        physics_timestep: float = DEFAULT_PHYSICS_TIMESTEP,
        always_init_at_clip_start: bool = False,
        proto_modifier: Any = None,
        prop_factory: Any = None,
        disable_props: bool = True,
        ghost_offset: Sequence[float] | None = None,
        body_error_multiplier: float = 1.0,
        actuator_force_coeff: float = 0.015,
        enabled_reference_observables: Sequence[str] | None = None,
    ) -> None:
        super().__init__(
            walker=walker,
            arena=arena,
            ref_path=ref_path,
            ref_steps=ref_steps,
            termination_error_threshold=termination_error_threshold,
            prop_termination_error_threshold=prop_termination_error_threshold,
            min_steps=min_steps,
            dataset=dataset,
            reward_type=reward_type,
            physics_timestep=physics_timestep,
            always_init_at_clip_start=always_init_at_clip_start,
            proto_modifier=proto_modifier,
            prop_factory=prop_factory,
            disable_props=disable_props,
            ghost_offset=ghost_offset,
            body_error_multiplier=body_error_multiplier,
            actuator_force_coeff=actuator_force_coeff,
            enabled_reference_observables=enabled_reference_observables,
        )
        self._walker.observables.add_observable(
            "time_in_clip", base_observable.Generic(self.get_normalized_time_in_clip)
        )

    def after_step(self, physics: Any, random_state: np.random.RandomState) -> None:
        """Advances the clip, reads the walker's features and the tracking error."""
        super().after_step(physics, random_state)
        self._time_step += 1
        self._walker_features = utils.get_features(physics, self._walker, props=self._props)
        self._walker_joints = np.array(physics.bind(self._walker.mocap_joints).qpos)
        self._current_reference_features = {
            key: value[self._time_step].copy()
            for key, value in self._clip_reference_features.items()
        }
        self._compute_termination_error()
        self._end_mocap = self._time_step == self._last_step
        self._reference_observations.update(self.get_all_reference_observations(physics))
        self._update_ghost(physics)

    def get_normalized_time_in_clip(self, physics: Any) -> np.ndarray:
        """(time since the clip's window start) / the clip's duration, (1,)."""
        elapsed = self._current_start_time + physics.time()
        return np.array([elapsed / self._current_clip.duration])

    @property
    def name(self) -> str:
        return "MultiClipMocapTracking"


class PlaybackTask(ReferencePosesTask):
    """Shows the clips of a collection one after another, each from its start
    (reward 0; the walker is posed from the clip after every step)."""

    def __init__(
        self,
        walker: Callable[..., Any],
        arena: composer.Arena,
        ref_path: str,
        dataset: str | types.ClipCollection,
        proto_modifier: Any = None,
        physics_timestep: float = DEFAULT_PHYSICS_TIMESTEP,
    ) -> None:
        super().__init__(
            walker=walker,
            arena=arena,
            ref_path=ref_path,
            ref_steps=(1,),
            dataset=dataset,
            termination_error_threshold=np.inf,
            physics_timestep=physics_timestep,
            always_init_at_clip_start=True,
            proto_modifier=proto_modifier,
        )
        self._current_clip_index = -1

    def _get_clip_to_track(self, random_state: np.random.RandomState) -> None:
        self._current_clip_index = (self._current_clip_index + 1) % self._num_clips
        clip_index = self._current_clip_index
        start_step = (self._dataset.start_steps or ())[clip_index]
        _log.info(
            "Showing clip %d of %d, clip id %s",
            clip_index + 1,
            self._num_clips,
            self._dataset.ids[clip_index],
        )
        self._select_clip(clip_index, start_step)
        self._clip_reference_features = _strip_reference_prefix(
            self._clip_reference_features, "walker/"
        )
        self._last_step = len(self._clip_reference_features["joints"]) - self._max_ref_step - 1

    def _set_walker(self, physics: Any) -> None:
        features = _at(self._clip_reference_features, self._time_step)
        utils.set_walker_from_features(physics, self._walker, features)
        mujoco.mj_kinematics(physics.model, physics.data)

    def after_step(self, physics: Any, random_state: np.random.RandomState) -> None:
        super().after_step(physics, random_state)
        self._time_step += 1
        self._set_walker(physics)
        self._end_mocap = self._time_step == self._last_step

    def get_reward(self, physics: Any) -> float:
        return 0.0

    @property
    def name(self) -> str:
        return "PlaybackTask"
