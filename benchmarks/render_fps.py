"""Camera observations per second on the CPU: 64x64 and 240x320, with and without
the costly effects.

Each frame renders the state after one control step of a seeded random policy;
only `Physics.render` (scene update, draw, pixel read-back and the Python around
them) is timed. Four ways:

  physics.render           its defaults, as composer_tasks.video uses it:
                           MuJoCo's shadows, reflections, 4x multisampling
  no shadows/refl.         shadows=False, reflections=False
  agent camera, full det.  also antialias=False, with level_of_detail="full":
                           the model's tessellation of round shapes
  agent camera             shadows, reflections and multisampling off with the
                           default level_of_detail="auto" (round shapes
                           tessellated no finer than the image size needs): what
                           agent cameras use (suites.wrappers.pixels)

All but the third use level_of_detail="auto", which at 240x320 is the model's
own tessellation.

The backend is whatever MUJOCO_GL selects; on a machine without a GPU run it with
MUJOCO_GL=egl or MUJOCO_GL=osmesa (Mesa's llvmpipe either way).

    MUJOCO_GL=egl python benchmarks/render_fps.py [--frames 300] [--repeats 3]
        [--tasks cartpole:swingup,walker:walk,humanoid:run] [--csv PATH]
"""

import csv
import datetime
import functools
import os
import platform
import time

from absl import app
from absl import flags
import mujoco
import numpy as np

from suites import suite

_FRAMES = flags.DEFINE_integer(
    "frames", 300, "Frames per timed run at 64x64 (a quarter of it at 240x320).", lower_bound=4
)
_REPEATS = flags.DEFINE_integer(
    "repeats", 3, "Timed runs of each case; the best is kept.", lower_bound=1
)
_TASKS = flags.DEFINE_list(
    "tasks", ["cartpole:swingup", "walker:walk", "humanoid:run"], "Suite tasks as domain:task."
)
_CAMERA = flags.DEFINE_integer("camera", 0, "Camera index (every suite model has 0 and 1).")
_CSV = flags.DEFINE_string(
    "csv", None, "Where to write the table; default benchmarks/results/render_fps_<MUJOCO_GL>.csv."
)

_SIZES = ((64, 64), (240, 320))
_AGENT_CAMERA = dict(shadows=False, reflections=False, antialias=False)
_MODES = {
    "physics.render": {},
    "no shadows/refl.": dict(shadows=False, reflections=False),
    "agent camera, full det.": dict(_AGENT_CAMERA, level_of_detail="full"),
    "agent camera": _AGENT_CAMERA,
}


def _frames_per_second(env, render, frames, random_state):
    spec = env.action_spec()
    env.reset()
    render()  # The first frame builds the GL context and uploads the model.
    elapsed = 0.0
    for _ in range(frames):
        timestep = env.step(random_state.uniform(spec.minimum, spec.maximum))
        if timestep.last():
            env.reset()
        start = time.perf_counter()
        render()
        elapsed += time.perf_counter() - start
    return frames / elapsed


def main(argv):
    del argv
    rows = []
    backend = os.environ.get("MUJOCO_GL", "<unset>")
    print(
        f"MUJOCO_GL={backend}, {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, MuJoCo {mujoco.__version__}"
    )
    print(f"{'task':<20} {'size':>8} {'mode':>24} {'frames/s':>9}")
    for name in _TASKS.value:
        domain_name, task_name = name.split(":")
        env = suite.load(domain_name, task_name, task_kwargs={"random": 0})
        for height, width in _SIZES:
            frames = _FRAMES.value if height * width <= 64 * 64 else max(_FRAMES.value // 4, 4)
            for mode, options in _MODES.items():
                render = functools.partial(
                    env.physics.render,
                    height=height,
                    width=width,
                    camera_id=_CAMERA.value,
                    **options,
                )
                rates = [
                    _frames_per_second(env, render, frames, np.random.RandomState(repeat))
                    for repeat in range(_REPEATS.value)
                ]
                # Each case starts from a new GL context, as a new environment would.
                env.physics.close_renderers()
                rate = max(rates)
                rows.append(
                    dict(
                        task=name,
                        height=height,
                        width=width,
                        mode=mode,
                        frames_per_second=round(rate, 1),
                        backend=backend,
                    )
                )
                print(f"{name:<20} {f'{height}x{width}':>8} {mode:>24} {rate:9.0f}", flush=True)
        env.close()
    path = _CSV.value or f"benchmarks/results/render_fps_{backend}.csv"
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]) + ["date"])
        writer.writeheader()
        date = datetime.date.today().isoformat()
        for row in rows:
            writer.writerow(dict(row, date=date))
    print(f"wrote {path}")


if __name__ == "__main__":
    app.run(main)
