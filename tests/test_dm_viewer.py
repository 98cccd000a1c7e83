"""dm_control.viewer.launch's counterpart: the loader, the policy and the refused window
settings (the window itself is tested in tests/test_viewer*.py under Xvfb)."""

import pytest

from composer_tasks import porting
from composer_tasks import viewer
from composer_tasks.viewer import dm_viewer, window
from suites import suite


@pytest.fixture
def shown(monkeypatch):
    calls = []
    # The window is MuJoCo's (tests/test_viewer*.py); here no display is needed.
    monkeypatch.setattr(window, "require_display", lambda: None)
    monkeypatch.setattr(viewer, "launch", lambda env, policy: calls.append((env, policy)))
    return calls


def test_an_environment_or_its_loader_is_shown_with_the_policy(shown):
    env = suite.load("cartpole", "balance", task_kwargs={"random": 0})
    policy = lambda timestep: [0.0]  # noqa: E731
    assert dm_viewer.launch(env, policy=policy) is None
    assert shown[-1] == (env, policy)
    made = []
    dm_viewer.launch(lambda: made.append(env) or env)
    assert made == [env] and shown[-1] == (env, None)


@pytest.mark.parametrize("settings", [dict(title="Mine"), dict(width=640), dict(height=480)])
def test_other_window_settings_are_refused_not_dropped(shown, settings):
    env = suite.load("cartpole", "balance", task_kwargs={"random": 0})
    with pytest.raises(ValueError, match="sets its own title and size"):
        dm_viewer.launch(env, **settings)
    with pytest.raises(ValueError, match="environment_loader is None"):
        dm_viewer.launch(None)
    assert not shown


def test_dm_control_viewer_imports_port_to_it():
    ported = porting.rewrite_imports("from dm_control import viewer\n")
    assert ported == "import composer_tasks.viewer.dm_viewer as viewer\n"
    with pytest.raises(porting.PortingError, match="own application"):
        porting.rewrite_imports("from dm_control.viewer import application\n")
