"""The optimal policy and value of an LQR task, from the discrete algebraic Riccati
equation (the infinite-horizon, discrete-time LQR; dm_control 1.0.50
`suite/lqr_solver.py` solves the same problem).

The dynamics are those of one semi-implicit Euler step of the spring chain:
with mass matrix M, stiffness K, damping D and timestep dt, v' = v + dt M^-1
(B u - K q - D v) and q' = q + dt v', i.e. x' = A x + B u for x = (q, v).
The cost per step is |q|^2 / 2 + c |u|^2 / 2 (the task's reward is 1 minus it).
"""

import mujoco
import numpy as np
import scipy.linalg


def solve(env):
    """The optimal value and policy of an LQR environment (`suite.load("lqr", ...)`).

    Returns:
      p: (2n, 2n) the Hessian of the optimal cost-to-go: V(x) = x' p x / 2.
      k: (m, 2n) the optimal linear policy u = k x, x = (qpos, qvel).
      beta: the largest eigenvalue modulus of A + B k: under the optimal policy
        the state shrinks like beta ** steps.

    Raises:
      TypeError: if `env`'s task is not an LQR task (no `control_cost_coef`).
      RuntimeError: if the closed-loop system is not stable (beta >= 1).
    """
    task = env.task
    if not hasattr(task, "control_cost_coef"):
        raise TypeError(f"solve needs an LQR environment, got task {type(task).__name__}")
    model, data = env.physics.model, env.physics.data
    n, m = model.nq, model.nu
    mass = np.zeros((n, n))
    # The joint-space inertia of the current state (constant for this model).
    mujoco.mj_fullM(model, data, mass)
    stiffness = np.diag(model.jnt_stiffness)
    damping = np.diag(model.dof_damping)
    dt = model.opt.timestep

    acceleration = np.linalg.solve(-mass, np.hstack((stiffness, damping)))
    a = np.eye(2 * n) + dt * np.vstack(
        (dt * acceleration + np.hstack((np.zeros((n, n)), np.eye(n))), acceleration)
    )
    actuated = np.vstack((np.eye(m), np.zeros((n - m, m))))
    control_acceleration = np.linalg.solve(mass, actuated)
    b = dt * np.vstack((dt * control_acceleration, control_acceleration))
    q = np.diag(np.hstack([np.ones(n), np.zeros(n)]))
    r = task.control_cost_coef * np.eye(m)

    p = scipy.linalg.solve_discrete_are(a, b, q, r)
    k = -np.linalg.solve(b.T @ p @ b + r, b.T @ p @ a)
    beta = np.abs(np.linalg.eigvals(a + b @ k)).max()
    if beta >= 1.0:
        raise RuntimeError(f"the controlled system is unstable (largest |eigenvalue| {beta})")
    return p, k, beta
