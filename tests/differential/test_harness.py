"""The differential machinery itself, without the reference venv: the worker's
encoding, the harness's value comparison, a program run in-process, and the
import rewriter (`composer_tasks.porting`) that ports each program."""

import math

import numpy as np
import pytest

from composer_tasks import porting
from tests.differential import harness, worker


class _Spec:
    """Duck-typed like a dm_env BoundedArray (the worker never imports dm_env)."""

    def __init__(self, shape, name, minimum, maximum):
        self.shape, self.dtype, self.name = shape, np.float64, name
        self.minimum, self.maximum = minimum, maximum

    def generate_value(self):
        return np.zeros(self.shape)


# --- worker.encode -------------------------------------------------------------------


def test_encode_scalars():
    assert worker.encode(None) is None
    assert worker.encode(True) is True
    assert worker.encode(np.bool_(False)) is False
    assert worker.encode(np.int32(7)) == 7 and type(worker.encode(np.int32(7))) is int
    assert worker.encode(2.5) == 2.5
    assert worker.encode(np.float32(0.5)) == 0.5
    assert worker.encode(float("nan")) == {"__float__": "nan"}
    assert worker.encode(-math.inf) == {"__float__": "-inf"}
    assert worker.encode(math.inf) == {"__float__": "inf"}
    assert worker.encode("walker/hip") == "walker/hip"


def test_encode_arrays_keep_shape_and_kind():
    encoded = worker.encode(np.array([[1.0, np.nan], [np.inf, 0.0]]))
    assert encoded == {
        "__array__": [1.0, {"__float__": "nan"}, {"__float__": "inf"}, 0.0],
        "shape": [2, 2],
        "dtype": "f",
    }
    assert worker.encode(np.arange(3, dtype=np.int8)) == {
        "__array__": [0, 1, 2],
        "shape": [3],
        "dtype": "i",
    }
    assert worker.encode(np.array(["a", "b"])) == {
        "__array__": ["a", "b"],
        "shape": [2],
        "dtype": "U",
    }
    assert worker.encode(np.zeros((0, 3)))["shape"] == [0, 3]


def test_encode_containers_exceptions_specs_and_objects():
    assert worker.encode((1, [2.0, "x"])) == [1, [2.0, "x"]]
    assert worker.encode({"b": 1, "a": np.float64(2)}) == {"__dict__": [["b", 1], ["a", 2.0]]}
    assert worker.encode({3, 1, 2}) == [1, 2, 3]
    assert worker.encode(ValueError("no")) == {"__raises__": "ValueError"}
    spec = worker.encode(_Spec((2,), "action", np.array([-1.0, -1.0]), np.array([1.0, 1.0])))
    assert spec["__spec__"]["shape"] == [2]
    assert spec["__spec__"]["dtype"] == "float64"
    assert spec["__spec__"]["name"] == "action"
    assert spec["__spec__"]["minimum"]["__array__"] == [-1.0, -1.0]
    assert worker.encode(object()) == {"__object__": "object"}
    nested: list = []
    for _ in range(30):
        nested = [nested]
    assert "too deep" in str(worker.encode(nested))


# --- harness._compare ----------------------------------------------------------------


def _why(ours, theirs, rtol=1e-7, atol=1e-9):
    return harness._compare("k", worker.encode(ours), worker.encode(theirs), rtol, atol)


def test_compare_numbers_within_and_beyond_tolerance():
    assert _why(1.0, 1.0 + 1e-9) is None
    assert _why(1.0, 1.001) == "differ"
    assert _why(1.0, 1.001, rtol=1e-2) is None
    assert _why(3, 3) is None
    assert _why(3, 4) == "differ"
    assert _why(float("nan"), float("nan")) is None
    assert _why(math.inf, math.inf) is None
    assert _why(math.inf, -math.inf) == "differ"
    assert _why("3", 3) == "dm_control gives a number, ours does not"


def test_compare_booleans_are_not_numbers():
    assert _why(True, True) is None
    assert _why(1, True) == "dm_control gives a bool, ours does not"
    assert _why(True, 1) == "ours gives a bool, dm_control does not"
    assert _why(True, False) == "differ"


def test_compare_arrays():
    assert _why(np.ones(3), np.ones(3)) is None
    assert _why(np.ones(3), np.ones((3, 1))) == "shape [3] != [3, 1]"
    assert _why(np.ones(3, dtype=int), np.ones(3)) == "dtype kind i != f"
    assert _why([1.0, 1.0, 1.0], np.ones(3)) == "dm_control gives an array, ours does not"
    why = _why(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 2.5]))
    assert why == "1 of 3 values differ (largest at flat index 2: 2.0 vs 2.5)"
    why = _why(np.array([0.0, np.nan, 5.0]), np.array([1.0, 1.0, 1.0]))
    assert why == "3 of 3 values differ (largest at flat index 1: nan vs 1.0)"
    assert _why(np.array([np.nan, 1.0]), np.array([np.nan, 1.0])) is None
    assert _why(np.array(["a"]), np.array(["a"])) is None
    assert _why(np.array(["a"]), np.array(["b"])) == "values differ"


def test_compare_sequences_and_mappings():
    assert _why([1, 2], [1, 2]) is None
    assert _why([1, 2], [1, 2, 3]) == "length 2 != 3"
    assert _why([1, 5], [1, 2]) == "[1] differ"
    assert _why(5, [5]) == "dm_control gives a sequence, ours does not"
    assert _why({"a": 1, "b": 2}, {"a": 1, "b": 2}) is None
    assert _why({"b": 2, "a": 1}, {"a": 1, "b": 2}) == "keys ['b', 'a'] != ['a', 'b']"
    assert _why({"a": 1}, {"a": 2}) == "['a'] differ"
    assert _why([1], {"a": 1}) == "dm_control gives a mapping, ours does not"


def test_compare_specs_and_raises():
    spec = _Spec((2,), "action", np.zeros(2), np.ones(2))
    assert _why(spec, spec) is None
    other = _Spec((2,), "act", np.zeros(2), np.ones(2))
    assert _why(other, spec) == "spec name: differ"
    assert _why(np.zeros(2), spec) == "dm_control gives a spec, ours does not"
    assert _why(ValueError(), ValueError()) is None
    assert (
        _why(TypeError(), ValueError())
        == "raises TypeError vs raises ValueError (ours vs dm_control)"
    )
    assert _why(1.0, ValueError()) == "returns vs raises ValueError (ours vs dm_control)"
    assert _why(KeyError(), [1]) == "raises KeyError vs returns (ours vs dm_control)"


# --- worker.run_program ---------------------------------------------------------------


def test_run_program_records_checks_and_errors():
    source = (
        "record('a', 1)\n"
        "check('b', lambda x: x * 2, 4)\n"
        "check('c', lambda: 1 / 0)\n"
        "print('noise')\n"
        "raise RuntimeError('stop')\n"
        "record('never', 0)\n"
    )
    reply = worker.run_program("p", source, None)
    assert reply["records"] == [["a", 1], ["b", 8], ["c", {"__raises__": "ZeroDivisionError"}]]
    assert "RuntimeError: stop" in reply["error"]


def test_run_program_ports_its_imports():
    reply = worker.run_program(
        "p", "from dm_control import mjcf\nrecord('m', mjcf.__name__)\n", porting.rewrite_imports
    )
    assert reply == {"records": [["m", "composer_tasks.mjcf"]], "error": None}


# --- Differential.compare, with two in-process sides ---------------------------------


class _FakeDifferential(harness.Differential):
    """Both sides' replies given; exercises compare/assert_same without processes."""

    def __init__(self, ours, theirs):
        self._replies = ours, theirs

    def run(self, source, name="program", timeout_s=0.0):
        return self._replies


def test_compare_counts_missing_and_extra_keys():
    ours = harness.Side([("a", 1), ("extra", 2)], None)
    theirs = harness.Side([("a", 1), ("missing", 3)], None)
    comparison = _FakeDifferential(ours, theirs).compare("")
    assert comparison.compared == 3
    assert comparison.agreed == 1
    assert [(d.key, d.why) for d in comparison.differences] == [
        ("missing", "not recorded here"),
        ("extra", "not recorded by dm_control"),
    ]


def test_assert_same_reports_differences_and_tracebacks():
    same = _FakeDifferential(harness.Side([("a", 1)], None), harness.Side([("a", 1)], None))
    assert same.assert_same("").agreed == 1
    failing = _FakeDifferential(
        harness.Side([("a", 2)], "Traceback: ours broke"), harness.Side([("a", 1)], None)
    )
    with pytest.raises(AssertionError, match=r"1 of 1 values differ") as raised:
        failing.assert_same("", "prog")
    assert "ours broke" in str(raised.value)
    assert "a: differ" in str(raised.value)


# --- porting.rewrite_imports ------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from dm_control import mjcf\n", "import composer_tasks.mjcf as mjcf\n"),
        ("from dm_control import mjcf as m\nx = 1\n", "import composer_tasks.mjcf as m\nx = 1\n"),
        (
            "from dm_control import mjcf, composer\n",
            "import composer_tasks.mjcf as mjcf; import composer_tasks.composer as composer\n",
        ),
        ("import dm_control.mjcf as m\n", "import composer_tasks.mjcf as m\n"),
        (
            "import numpy as np, dm_control.mjcf as m\n",
            "import numpy as np; import composer_tasks.mjcf as m\n",
        ),
        (
            "from dm_control.composer import Entity\n",
            "from composer_tasks.composer import Entity\n",
        ),
        (
            "from dm_control.composer.variation import *\n",
            "from composer_tasks.composer.variation import *\n",
        ),
        (
            "from dm_control.utils import rewards\n",
            "import composer_tasks.rewards as rewards\n",
        ),
        (
            "from dm_control.locomotion.walkers import ant\n",
            "import composer_tasks.walkers.ant as ant\n",
        ),
        (
            "def f():\n    from dm_control import mjcf\n    return mjcf\n",
            "def f():\n    import composer_tasks.mjcf as mjcf\n    return mjcf\n",
        ),
        (
            "x = 1; from dm_control import mjcf; y = 2\n",
            "x = 1; import composer_tasks.mjcf as mjcf; y = 2\n",
        ),
        ("import os\nprint(os.sep)\n", "import os\nprint(os.sep)\n"),
    ],
)
def test_rewrite_imports(source, expected):
    assert porting.rewrite_imports(source) == expected


def test_rewrite_multiline_import_keeps_line_numbers():
    source = "from dm_control.composer import (\n    variation,\n    observation as obs,\n)\nboom\n"
    ported = porting.rewrite_imports(source)
    assert ported.splitlines() == [
        "import composer_tasks.composer.variation as variation; "
        "import composer_tasks.composer.observation as obs",
        "",
        "",
        "",
        "boom",
    ]


def test_rewrite_imports_with_a_custom_table():
    table = {"dm_control.mjcf": "composer_tasks.mjcf", "dm_control.utils": "tests.differential"}
    assert porting.rewrite_imports("from dm_control.utils import harness\n", table) == (
        "import tests.differential.harness as harness\n"
    )


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("import dm_control.mjcf\n", r"line 1: `import dm_control.mjcf` is only portable as"),
        ("import dm_control\n", r"`import dm_control` is only portable"),
        (
            "x = 0\nfrom dm_control.viewer import application\n",
            r"line 2: `from dm_control.viewer import application` has no counterpart",
        ),
        (
            "from dm_control.viewer import gui\n",
            r"`from dm_control.viewer import gui` has no counterpart",
        ),
    ],
)
def test_rewrite_unmapped_import_raises(source, message):
    with pytest.raises(porting.PortingError, match=message):
        porting.rewrite_imports(source)


def test_porting_error_is_a_value_error():
    assert issubclass(porting.PortingError, ValueError)


def test_rewrite_two_imports_on_one_line():
    assert porting.rewrite_imports(
        "from dm_control import mjcf; from dm_control import composer\n"
    ) == ("import composer_tasks.mjcf as mjcf; import composer_tasks.composer as composer\n")


def test_rewrite_suite_domain_import_is_importable():
    namespace: dict = {}
    exec(porting.rewrite_imports("from dm_control.suite import cartpole\n"), namespace)  # noqa: S102
    assert namespace["cartpole"].__name__ == "suites.cartpole"


@pytest.mark.parametrize(
    "source",
    [
        "from dm_control.mujoco.wrapper import core\n",
        "import dm_control.mujoco.wrapper.core as core\n",
        "from dm_control.locomotion.mocap import mocap_pb2\n",
    ],
)
def test_modules_without_a_counterpart_raise_with_the_reason(source):
    with pytest.raises(porting.PortingError, match="has no counterpart: dm_control's"):
        porting.rewrite_imports(source)


def test_dm_control_observable_submodules_are_the_one_observable_module():
    namespace: dict = {}
    exec(  # noqa: S102
        porting.rewrite_imports(
            "from dm_control.composer.observation.observable import base, mjcf\n"
        ),
        namespace,
    )
    assert namespace["base"].Generic is namespace["mjcf"].Generic
