"""The viewer in a browser, served by MuJoCo Studio's web viewer (`mujoco.studio`).

    from composer_tasks import viewer
    viewer.launch(env, policy, web=True)             # prints the URL, serves until Ctrl+C
    handle = viewer.show(env, policy)                 # in a notebook: the page inline

or `python -m composer_tasks.viewer humanoid stand --web [--port P] [--host H]`.

What runs where. MuJoCo Studio serves the page, the model and the state stream
on one HTTP port from a background thread, renders the scene in the browser
(WebGL) and runs its ImGui interface in a headless context streamed to the page
(pause, speed, step, reset, mouse perturbation, camera, visual options). This
module adds two Studio plugins and no server of its own:

- `EnvironmentLoop` (a sim-side plugin) steps the environment with its policy
  through a `Controller`, in real time at the speed the page sets, whenever
  `ViewerHandle.sync` runs on the caller's thread. Studio's Pause / Run, Step,
  Reset and speed controls (and Space, Backspace, `-`, `=`) reach it as Studio's
  own messages; Reset and Reload restart the episode with `env.reset()`. A mouse
  perturbation reaches the physics through Studio's own handling: the viewer
  sends the perturbation force as `xfrc_applied`, which the handle writes into
  the environment's `MjData` before the next steps.
- `EpisodeOverlay` (a viewer-side plugin) draws two windows over the scene:
  episode, step, time, reward, return, last return, speed, state, why the last
  episode ended, the last error; and the observation.

Access. Studio 4.0 binds every interface ("::") and checks no credential (its
own banner says so, and a TODO in `web_viewer.py` plans a host option). This
module binds 127.0.0.1 unless told otherwise and, on any other interface,
requires a random token on every request (page, files, model and the /ui, /state
and /drop WebSockets): given once in the URL (`?token=...`), it is kept in an
HttpOnly, SameSite=Strict cookie for the page's later requests. A request
without it, or with a wrong one, gets 403 Forbidden. On every interface, a
request whose Host does not name the viewer (DNS rebinding) or whose Origin is
not the viewer's own page (another site, another local port) gets 403 too;
Studio's internal loopback port (its headless interface's, which relays the
page's input) accepts connections from this process only; connections are
capped and idle or half-open ones time out. Studio offers no hook for any of
this, so `_install_studio_hooks` wraps four of its module functions
(`web_server.bind_public_socket`, `web_server.bind_loopback_socket`,
`web_server.serve`, `web_viewer._print_url_banner`); each wrapper changes nothing
for Studio viewers that this module did not start. See docs/viewer.md for the SSH tunnel recipe
and for what an exposed port shows.
"""

import atexit
import copy as copylib
import dataclasses
import hmac
import http.cookies
import ipaddress
import os
import secrets
import socket
import sys
import threading
import time
import urllib.parse
import weakref
import webbrowser
from typing import Any, Callable

import mujoco
import numpy as np
from mujoco.studio import app as studio_app
from mujoco.studio import launch_thread
from mujoco.studio import messages
from mujoco.studio import plugin

# pyright cannot see `sim`: a compiled submodule that `mujoco.studio` registers on import.
from mujoco.studio import sim  # pyright: ignore[reportAttributeAccessIssue]
from mujoco.studio import viewer_protocol
from mujoco.studio import web_viewer as studio_web_viewer
from mujoco.studio.dear_imgui import dear_imgui as imgui
from mujoco.studio.web import web_server
from websockets.datastructures import Headers
from websockets.http11 import Response

from composer_tasks.viewer import controller as controller_lib
from composer_tasks.viewer import sources

LOOPBACK = "127.0.0.1"
# Bytes of randomness in a token (192 bits), as `secrets.token_urlsafe` counts them.
_TOKEN_BYTES = 24
# Wall time the loop sleeps between syncs: the environment is stepped (and the
# state sent) up to 120 times a second, twice the page's frame rate, and the
# sleep leaves the GIL to the server and interface threads.
_LOOP_PERIOD_S = 1.0 / 120.0
# The overlay's windows: their right edge this far (pixels) from the page's, the
# status window's top below Studio's menu bar, and their width.
OVERLAY_MARGIN_PX = 8
OVERLAY_TOP_PX = 32
OVERLAY_WIDTH_PX = 330
# Pending connections the listening socket queues (websockets' own default).
_BACKLOG = 100
# Studio's step control runs at most at real time (100%).
MAX_WEB_SPEED = 1.0

_FORBIDDEN = (
    b"403 Forbidden: this viewer requires its access token. Open the URL with "
    b"?token=... that the viewer printed when it started.\n"
)
# Connections the viewer's port holds at once; one more is closed as it arrives.
# A page holds 3 WebSockets and loads its files over at most 6 connections.
MAX_CONNECTIONS = 64
# A connection that has not completed its request (or WebSocket handshake) this
# long after it opened is closed: idle and half-open connections hold nothing.
OPEN_TIMEOUT_S = 10.0
# An open WebSocket is pinged this often, and closed when a ping goes unanswered
# this long (a peer that vanished without closing: a half-open connection).
PING_INTERVAL_S = 10.0
PING_TIMEOUT_S = 10.0
# How long the closing handshake may take.
CLOSE_TIMEOUT_S = 5.0


# Studio hooks: the interface to bind, the access checks, the internal port's guard.


@dataclasses.dataclass(frozen=True)
class _Access:
    """Who may use a viewer's port: requests naming it (Host), from its own pages
    (Origin), with its token when it has one."""

    host: str
    token: str | None


# The socket bound for the Studio WebViewer being constructed on this thread.
_pending = threading.local()
# Listening socket -> its access rules, for every viewer this module starts.
_access: "weakref.WeakKeyDictionary[socket.socket, _Access]" = weakref.WeakKeyDictionary()
# Listening socket -> Studio's internal (NetImgui) socket of the same viewer.
_internal: "weakref.WeakKeyDictionary[socket.socket, socket.socket]" = weakref.WeakKeyDictionary()
_hooks_lock = threading.Lock()
_hooks_installed = False


class _GuardedSocket(socket.socket):
    """A listening socket whose `accept` closes, as they arrive, connections beyond
    `max_connections` open at once, or (`own_process_only`) connections made by
    any other process (Linux: the peer socket's inode among this process's file
    descriptors). asyncio's servers accept through this method and skip a
    connection refused with ConnectionAbortedError."""

    def __init__(
        self, listening: socket.socket, max_connections: int | None, own_process_only: bool
    ) -> None:
        super().__init__(
            listening.family, listening.type, listening.proto, fileno=listening.detach()
        )
        self._max_connections = max_connections
        self._own_process_only = own_process_only
        self._open: list[socket.socket] = []
        self.refused = 0

    def accept(self) -> tuple[socket.socket, Any]:
        connection, address = super().accept()
        # asyncio closes the socket it was given when the connection ends.
        self._open = [open_ for open_ in self._open if open_.fileno() != -1]
        reason = None
        if self._max_connections is not None and len(self._open) >= self._max_connections:
            reason = f"{len(self._open)} connections are open already"
        elif self._own_process_only and not _made_by_this_process(connection):
            reason = "it comes from another process"
        if reason is not None:
            connection.close()
            self.refused += 1
            raise ConnectionAbortedError(f"connection from {address} refused: {reason}")
        self._open.append(connection)
        return connection, address


def _made_by_this_process(connection: socket.socket) -> bool:
    """Whether the peer of a loopback TCP `connection` is a socket of this process.

    Read from /proc (Linux); elsewhere there is no portable way, and it is True.
    """
    try:
        peer_port = connection.getpeername()[1]
        own_port = connection.getsockname()[1]
    except OSError:  # The peer is gone already.
        return False
    try:
        with open("/proc/net/tcp", encoding="ascii") as table:
            rows = table.read().splitlines()[1:]
        descriptors = os.listdir("/proc/self/fd")
    except OSError:
        return True
    inodes = {
        fields[9]
        for fields in (row.split() for row in rows)
        if int(fields[1].rpartition(":")[2], 16) == peer_port
        and int(fields[2].rpartition(":")[2], 16) == own_port
    }
    for descriptor in descriptors:
        try:
            target = os.readlink(f"/proc/self/fd/{descriptor}")
        except OSError:
            continue
        if target.startswith("socket:[") and target[8:-1] in inodes:
            return True
    return False


def _install_studio_hooks() -> None:
    """Wraps the Studio functions this module relies on (see the docstring)."""
    global _hooks_installed
    with _hooks_lock:
        if _hooks_installed:
            return
        for module, name in (
            (web_server, "bind_public_socket"),
            (web_server, "bind_loopback_socket"),
            (web_server, "serve"),
            (studio_web_viewer, "_print_url_banner"),
        ):
            if not callable(getattr(module, name, None)):
                raise RuntimeError(
                    f"mujoco.studio {mujoco.__version__} has no {module.__name__}.{name}, "
                    f"which the web viewer needs to bind an interface and check its token; "
                    f"it was written for mujoco.studio 4.0"
                )
        bind_original = web_server.bind_public_socket
        bind_loopback_original = web_server.bind_loopback_socket
        serve_original = web_server.serve
        banner_original = studio_web_viewer._print_url_banner

        def bind_public_socket(host: str, port: int = 0) -> socket.socket:
            sock = getattr(_pending, "socket", None)
            return bind_original(host, port) if sock is None else sock

        def bind_loopback_socket(port: int = 0) -> socket.socket:
            internal = bind_loopback_original(port)
            public = getattr(_pending, "socket", None)
            if public is None:
                return internal
            # Studio's headless interface connects from this process; nothing else
            # may (it would be handed the browser's input, with no token asked).
            guarded = _GuardedSocket(internal, max_connections=None, own_process_only=True)
            _internal[public] = guarded
            return guarded

        def print_url_banner(host: str, port: int) -> None:
            # Ours is printed instead, with the interface actually bound.
            if getattr(_pending, "socket", None) is None:
                banner_original(host, port)

        def serve(
            handler: Any, *args: Any, sock: Any = None, process_request: Any = None, **kwargs: Any
        ) -> Any:
            access = _access.get(sock) if sock is not None else None
            if access is not None:
                assert sock is not None  # Only sockets have access rules.
                process_request = _access_check(access, sock.getsockname()[1], process_request)
                # Studio waits forever; a connection that idles is closed instead.
                kwargs.update(
                    open_timeout=OPEN_TIMEOUT_S,
                    ping_interval=PING_INTERVAL_S,
                    ping_timeout=PING_TIMEOUT_S,
                    close_timeout=CLOSE_TIMEOUT_S,
                )
            return serve_original(
                handler, *args, sock=sock, process_request=process_request, **kwargs
            )

        web_server.bind_public_socket = bind_public_socket
        web_server.bind_loopback_socket = bind_loopback_socket
        web_server.serve = serve
        studio_web_viewer._print_url_banner = print_url_banner
        _hooks_installed = True


def _forbidden(body: bytes) -> Response:
    headers = Headers()
    headers["Content-Type"] = "text/plain; charset=utf-8"
    headers["Content-Length"] = str(len(body))
    return Response(403, "Forbidden", headers, body)


def host_name(authority: str) -> str:
    """The host of a Host header's value ('name:port', '[v6]:port'), lowercase."""
    authority = authority.strip().lower()
    if authority.startswith("["):
        return authority[1:].partition("]")[0]
    return authority.rpartition(":")[0] if authority.count(":") == 1 else authority


def names_this_viewer(name: str, bound_host: str) -> bool:
    """Whether a request's Host names a viewer bound on `bound_host`.

    On loopback: `localhost` or a loopback address (any port: an SSH tunnel may
    forward another). On other interfaces also any IP address and this machine's
    names. Any other name is a page that made its name point here (DNS
    rebinding) or a proxy the viewer does not know.
    """
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        address = None
    if is_loopback(bound_host):
        return address is not None and address.is_loopback
    return address is not None or name in {socket.gethostname().lower(), socket.getfqdn().lower()}


def _access_check(access: _Access, port: int, process_request: Callable | None) -> Callable:
    """Studio's `process_request` behind the viewer's checks: the Host names the
    viewer, an Origin (sent by browsers, on every WebSocket) is the page's own,
    and the token is given (query or cookie) when the viewer has one."""
    cookie_name = f"composer_tasks_viewer_{port}"
    expected = access.token.encode() if access.token is not None else None

    def check(connection: Any, request: Any) -> Response | None:
        hosts = request.headers.get_all("Host")
        authority = hosts[0] if len(hosts) == 1 else ", ".join(hosts)
        if len(hosts) != 1 or not names_this_viewer(host_name(authority), access.host):
            return _forbidden(
                f"403 Forbidden: Host {authority!r} does not name this viewer; open it by "
                "the address it printed.\n".encode()
            )
        origins = request.headers.get_all("Origin")
        if origins and (
            len(origins) != 1
            or origins[0].lower()
            not in (f"http://{authority}".lower(), f"https://{authority}".lower())
        ):
            return _forbidden(
                f"403 Forbidden: a page of {', '.join(origins)!s} may not use this viewer "
                "(only its own page may).\n".encode()
            )
        from_query = False
        if expected is not None:
            query = request.path.partition("?")[2]
            given = urllib.parse.parse_qs(query).get("token", [None])[0]
            from_query = given is not None
            if given is None:
                given = _cookie(request.headers, cookie_name)
            if given is None or not hmac.compare_digest(given.encode(), expected):
                return _forbidden(_FORBIDDEN)
        response = process_request(connection, request) if process_request else None
        if from_query and response is not None:
            response.headers["Set-Cookie"] = (
                f"{cookie_name}={access.token}; Path=/; HttpOnly; SameSite=Strict"
            )
        return response

    return check


def _cookie(headers: Any, name: str) -> str | None:
    for header in headers.get_all("Cookie"):
        cookie = http.cookies.SimpleCookie()
        try:
            cookie.load(header)
        except http.cookies.CookieError:
            continue
        if name in cookie:
            return cookie[name].value
    return None


def is_loopback(host: str) -> bool:
    """Whether `host` (an address or "localhost") names this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# Plugins.


@dataclasses.dataclass(frozen=True)
class EpisodeSnapshot(messages.Snapshot):
    """The overlay's text, sent from the environment loop to the page (latest wins)."""

    status: tuple[tuple[str, str], ...]
    observation: tuple[tuple[str, str], ...]
    error: str | None


class EnvironmentLoop(plugin.SimPlugin):
    """Steps the attached environment through its `Controller` on each sync
    (Studio's StepEvent), and follows Studio's step control messages; see the
    module docstring. Without a controller attached it only paces the loop."""

    def __init__(self) -> None:
        self._controller: controller_lib.Controller | None = None
        self._report: Callable[[str], None] | None = None
        self._last_tick: float | None = None
        # (paused, speed) as the page last heard them.
        self._reported: tuple[bool, float] | None = None
        self._shown = _ShownModel()
        self.steps = 0

    @property
    def controller(self) -> controller_lib.Controller | None:
        return self._controller

    def attach(
        self,
        controller: controller_lib.Controller | None,
        report: Callable[[str], None] | None = None,
    ) -> None:
        """Drives `controller` from now on (None: nothing)."""
        self._controller = controller
        self._report = report
        self._last_tick = None
        self._reported = None
        self._shown = _ShownModel()
        self.steps = 0

    def show_model(self) -> None:
        """Gives Studio the environment's current model and data, when they are not
        the ones it has (a model recompiled or changed in place at a reset, a batch
        copy's new data): it then sends the page the new model. Run after each tick,
        so that a new episode's state is never drawn on the last episode's model."""
        controller = self._controller
        assert controller is not None, "no environment is attached"
        physics = controller.env.physics
        model = self._shown.model_for(physics.model, controller.episode)
        if model is not self.handle.model or physics.data is not self.handle.data:
            self.handle.set_model(model, data=physics.data)

    def _send_step_control(self) -> None:
        """Tells the page's Studio interface the pause state and speed when they change
        here (a paused start, an error that paused, a single step)."""
        controller = self._controller
        assert controller is not None, "no environment is attached"
        state = (controller.paused, controller.speed)
        if state != self._reported:
            self._reported = state
            pause = sim.PauseState.NORMAL_PAUSED if state[0] else sim.PauseState.UNPAUSED
            self.handle.send_to_viewer(
                messages.StepControlSnapshot(pause_state=pause, speed=100.0 * state[1])
            )

    def snapshot(self) -> EpisodeSnapshot:
        controller = self._controller
        assert controller is not None, "no environment is attached"
        labels, values = controller.status_text()
        status = tuple(zip(labels.split("\n"), values.split("\n")))
        names, values = controller.observation_text()
        observation = tuple(zip(names.split("\n"), values.split("\n")))
        return EpisodeSnapshot(status, observation, controller.last_error)

    @messages.handler(priority=messages.Priority.USER)
    def _on_step(self, event: messages.StepEvent) -> bool:
        del event
        if self._controller is None:
            time.sleep(_LOOP_PERIOD_S)
            return True
        now = time.perf_counter()
        elapsed = 0.0 if self._last_tick is None else now - self._last_tick
        self._last_tick = now
        self.steps += self._controller.tick(elapsed)
        self.show_model()
        self._send_step_control()
        self.handle.send_to_viewer(self.snapshot())
        time.sleep(_LOOP_PERIOD_S)
        return True

    @messages.handler(priority=messages.Priority.USER)
    def _on_step_control(self, event: messages.StepControlSnapshot) -> bool:
        if self._controller is None:
            return True
        paused = event.pause_state != sim.PauseState.UNPAUSED
        if paused != self._controller.paused:
            self._controller.command(controller_lib.PAUSE)
        speed = event.speed / 100.0
        if not np.isclose(speed, self._controller.speed, rtol=1e-6):
            self._controller.set_speed(speed)
        self._reported = (self._controller.paused, self._controller.speed)
        return True

    @messages.handler(priority=messages.Priority.USER)
    def _on_pause(self, event: messages.RequestPauseEvent) -> bool:
        if self._controller is None:
            return True
        paused = event.pause_state != sim.PauseState.UNPAUSED
        if paused != self._controller.paused:
            self._controller.command(controller_lib.PAUSE)
        return True

    @messages.handler(priority=messages.Priority.USER)
    def _on_single_step(self, event: messages.SingleStepEvent) -> bool:
        if self._controller is None:
            return True
        del event
        self._controller.command(controller_lib.STEP)
        return True

    @messages.handler(priority=messages.Priority.USER)
    def _on_reset(self, event: messages.ResetEvent) -> bool:
        if self._controller is None:
            return True
        # Consumed: Studio's own reset would reset MjData without the task's
        # episode initialisation.
        del event
        self._controller.command(controller_lib.RESTART)
        return True

    @messages.handler(priority=messages.Priority.USER)
    def _on_load_model(self, event: messages.LoadModelEvent) -> bool:
        if self._controller is None:
            return True
        if event.path and event.path != self.handle.model_path:
            assert self._report is not None, "attach(controller, report) gives no report"
            self._report(
                f"not loading {event.path!r} (a file dropped on the page): this viewer "
                f"shows its environment's model"
            )
        else:  # Studio's Reload button.
            self._controller.command(controller_lib.RESTART)
        return True


class EpisodeOverlay(plugin.ViewerPlugin):
    """Draws the last `EpisodeSnapshot` in two windows at the page's right edge."""

    def __init__(self) -> None:
        self._snapshot = None

    @messages.handler(priority=messages.Priority.USER)
    def _on_episode(self, snapshot: EpisodeSnapshot) -> None:
        self._snapshot = snapshot

    @messages.handler(priority=messages.Priority.USER)
    def _on_build_gui(self, event: messages.BuildGuiEvent) -> None:
        del event
        snapshot = self._snapshot
        if snapshot is None:
            return
        display = imgui.GetIO().DisplaySize
        flags = 0
        for flag in (
            "NoDocking",
            "NoMove",
            "NoResize",
            "NoCollapse",
            "NoSavedSettings",
            "AlwaysAutoResize",
            "NoFocusOnAppearing",
        ):
            flags |= int(getattr(imgui.WindowFlags, flag))
        right = display.x - OVERLAY_MARGIN_PX
        imgui.SetNextWindowPos(
            imgui.Vec2(right, OVERLAY_TOP_PX), imgui.Cond.Always, imgui.Vec2(1.0, 0.0)
        )
        imgui.SetNextWindowSize(imgui.Vec2(OVERLAY_WIDTH_PX, 0.0), imgui.Cond.Always)
        imgui.SetNextWindowBgAlpha(1.0)
        imgui.Begin("Episode", None, flags)
        _table("status", snapshot.status)
        if snapshot.error:
            imgui.Separator()
            imgui.TextColored(imgui.Vec4(0.9, 0.2, 0.2, 1.0), "last error")
            imgui.TextWrapped(snapshot.error)
        height = imgui.GetWindowSize().y
        imgui.End()
        imgui.SetNextWindowPos(
            imgui.Vec2(right, OVERLAY_TOP_PX + height + OVERLAY_MARGIN_PX),
            imgui.Cond.Always,
            imgui.Vec2(1.0, 0.0),
        )
        imgui.SetNextWindowSize(imgui.Vec2(OVERLAY_WIDTH_PX, 0.0), imgui.Cond.Always)
        imgui.SetNextWindowBgAlpha(1.0)
        imgui.Begin("Observation", None, flags)
        _table("observation", snapshot.observation)
        imgui.End()


def _table(name: str, rows: tuple[tuple[str, str], ...]) -> None:
    if imgui.BeginTable(name, 2):
        for label, value in rows:
            imgui.TableNextRow()
            imgui.TableNextColumn()
            imgui.TextUnformatted(label)
            imgui.TableNextColumn()
            imgui.TextUnformatted(value)
        imgui.EndTable()


# The viewer.


class _ShownModel:
    """The model given to Studio, which sends a model to the page only when its
    identity changes: a model changed in place (a batch's per-copy model variation
    at the copy's reset, a task writing model fields at an episode's start) is
    compared with the one shown at each new episode, and a changed one is shown
    as a copy of itself, so the page reloads it."""

    def __init__(self) -> None:
        self._source: mujoco.MjModel | None = None
        self._shown: mujoco.MjModel | None = None
        self._saved: np.ndarray | None = None
        self._episode: int | None = None

    def model_for(self, model: mujoco.MjModel, episode: int) -> mujoco.MjModel:
        if model is not self._source:
            self._source, self._shown = model, model
            self._saved, self._episode = _saved_model(model), episode
        elif episode != self._episode:
            self._episode = episode
            saved = _saved_model(model)
            assert self._saved is not None  # Saved with the source model.
            if not np.array_equal(saved, self._saved):
                self._saved, self._shown = saved, copylib.copy(model)
        return self._shown


def _saved_model(model: mujoco.MjModel) -> np.ndarray:
    """Every field of `model`, as MuJoCo's binary model file holds them."""
    buffer = np.empty(mujoco.mj_sizeModel(model), np.uint8)
    mujoco.mj_saveModel(model, None, buffer)
    return buffer


class _Studio:
    """The process's MuJoCo Studio web viewer: its socket, token, handle and loop.

    Studio 4.0 runs its web viewer once per process: a second one, even after the
    first was closed, hangs in its headless interface's first frame (and the
    process crashes at exit). So the first `WebViewer` starts it and it serves
    until the process ends; later `WebViewer`s drive it with their environment,
    on the same host, port and token.
    """

    def __init__(self, host: str, port: int, require_token: bool) -> None:
        _install_studio_hooks()
        try:
            self.socket = _GuardedSocket(
                web_server.bind_public_socket(host, port),
                max_connections=MAX_CONNECTIONS,
                own_process_only=False,
            )
        except (RuntimeError, OSError) as error:
            raise OSError(
                f"the web viewer cannot listen on {host}:{port or '8080-8099'}: {error}. "
                f"Pass another --port (0: the first free one from 8080)."
            ) from None
        # Listening at once holds the port: Studio binds with SO_REUSEADDR and listens
        # only when its server thread starts, and until then another process may
        # bind and listen on the same port (Studio then crashes). Connections made
        # before the server runs wait in the backlog.
        self.socket.listen(_BACKLOG)
        self.host = host
        self.port = self.socket.getsockname()[1]
        self.token = secrets.token_urlsafe(_TOKEN_BYTES) if require_token else None
        _access[self.socket] = _Access(host, self.token)
        self.handle = None
        self.loop = EnvironmentLoop()
        # The `WebViewer` driving the loop, if any.
        self.user: "WebViewer | None" = None

    def start(self, title: str) -> None:
        config = viewer_protocol.ViewerConfig(title=title, gfx="web", http_port=self.port)
        plugins = [studio_app.App(studio_app.Config(show_inspector=False)), EpisodeOverlay()]
        sock = self.socket

        def run_viewer(endpoint: Any) -> None:
            _pending.socket = sock
            try:
                viewer = studio_web_viewer.WebViewer(config, endpoint, plugins=plugins)
            finally:
                _pending.socket = None
            viewer_protocol.run_viewer_loop(viewer)

        self.handle = launch_thread.launch_thread(run_viewer, sim_plugins=[self.loop])

    def close(self) -> None:
        handle, self.handle = self.handle, None
        if handle is not None:
            handle.close()
        _access.pop(self.socket, None)
        internal = _internal.pop(self.socket, None)
        if internal is not None:
            internal.close()
        self.socket.close()

    @property
    def internal_socket(self) -> socket.socket | None:
        """Studio's internal (NetImgui) listening socket, once the viewer started."""
        return _internal.get(self.socket)


_studio: _Studio | None = None
_studio_lock = threading.Lock()


def shutdown() -> None:
    """Closes the process's Studio web viewer (run at exit). No web viewer can be
    started in this process afterwards (see `_Studio`)."""
    global _studio
    with _studio_lock:
        studio, _studio = _studio, None
    if studio is not None:
        studio.close()


atexit.register(shutdown)


class WebViewer:
    """An environment served to browsers by MuJoCo Studio's web viewer.

    Binds the port on construction (so a port in use fails here, clearly); `start`
    shows the environment, `run` drives it on the calling thread until Ctrl+C or
    `close`, `run_in_background` drives it from a daemon thread (notebooks).

    One Studio web viewer serves a process for its whole life (Studio 4.0 cannot
    start a second, see `_Studio`): a later `WebViewer` takes it over on the same
    host, port and token, once the earlier one is closed. `close()` stops the
    environment; the page keeps its last frame until another takes over.

    Args:
      env: a `composer.Environment` (or a wrapper forwarding `physics` and `task`),
        or a `BatchEnvironment` with `copy`.
      policy: `policy(timestep) -> action`, or an agent checkpoint's path; None
        applies the action nearest to zero (see `viewer.launch`).
      copy: for a `BatchEnvironment`, the copy shown (`viewer.batch_copy`).
      host: the interface to bind; 127.0.0.1 (this machine only) by default.
      port: the port; 0 takes the first free one from 8080 (Studio's choice), or
        the port this process serves on already.
      paused: start paused.
      speed: initial playback speed, a multiple of real time in (0, 1] (Studio's
        speed control goes up to real time).
      require_token: None requires a token exactly when `host` is not loopback;
        True requires one on loopback too (a machine shared with other users).
        False on a non-loopback host is refused.
      title: the page's title; the environment's task class by default.
      out: where messages go (stdout for the address, stderr for errors by default).

    Raises:
      OSError: the port is in use.
      ValueError: bad arguments, or a host, port or token choice other than the one
        this process's Studio viewer serves with.
    """

    def __init__(
        self,
        env: Any,
        policy: Callable | str | os.PathLike | None = None,
        *,
        copy: int | None = None,
        host: str = LOOPBACK,
        port: int = 0,
        paused: bool = False,
        speed: float = 1.0,
        require_token: bool | None = None,
        title: str | None = None,
        out: Any = None,
    ) -> None:
        global _studio
        if not isinstance(host, str) or not host:
            raise ValueError(
                f"host must be an interface address such as {LOOPBACK!r}, got {host!r}"
            )
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise ValueError(
                f"port must be an integer in [0, 65535] (0: the first free from 8080), got {port!r}"
            )
        if require_token is None:
            require_token = not is_loopback(host)
        elif not require_token and not is_loopback(host):
            raise ValueError(
                f"host {host!r} is reachable from other machines: the viewer requires a token "
                f"there (require_token=False is only allowed on loopback)"
            )
        if (
            isinstance(speed, bool)
            or not isinstance(speed, (int, float))
            or not 0 < speed <= MAX_WEB_SPEED
        ):
            raise ValueError(
                f"speed must be a multiple of real time in (0, {MAX_WEB_SPEED:g}] in the web "
                f"viewer (MuJoCo Studio's speed control goes up to real time), got {speed!r}"
            )
        self._out = out
        task_name = type(getattr(env, "task", env)).__name__
        if copy is not None:
            task_name += f", copy {copy}"
        env, policy = sources.prepare(env, policy, copy)
        self._controller = controller_lib.Controller(
            env, policy, paused=paused, recover=True, on_error=self._report
        )
        # Studio's slider sets speeds between the keys' SPEEDS.
        self._controller.set_speed(float(speed))
        self._env = env
        self._title = title or f"composer_tasks: {task_name}"
        with _studio_lock:
            if _studio is None:
                _studio = _Studio(host, port, require_token)
            elif (
                host != _studio.host
                or port not in (0, _studio.port)
                or require_token != (_studio.token is not None)
            ):
                raise ValueError(
                    f"this process serves its web viewer on {_studio.host}:{_studio.port} "
                    f"({'with' if _studio.token else 'without'} a token) already, and MuJoCo "
                    f"Studio cannot start a second one in a process: use that host and port "
                    f"(port=0 takes it), or another process"
                )
            self._studio = _studio
        self._started = False
        self._thread = None
        self._stop = threading.Event()

    @property
    def controller(self) -> controller_lib.Controller:
        return self._controller

    @property
    def port(self) -> int:
        return self._studio.port

    @property
    def host(self) -> str:
        return self._studio.host

    def socket_address(self) -> tuple:
        """The bound (host, port) as the operating system reports it."""
        return self._studio.socket.getsockname()

    @property
    def token(self) -> str | None:
        """The access token (None when none is required)."""
        return self._studio.token

    @property
    def url(self) -> str:
        """The page's address, with the token when one is required."""
        host = self.host
        if host in ("0.0.0.0", "::"):
            host = socket.getfqdn()
        elif ":" in host:
            host = f"[{host}]"
        query = f"?token={self.token}" if self.token else ""
        return f"http://{host}:{self.port}/{query}"

    def _report(self, message: str) -> None:
        print(f"composer_tasks.viewer: {message}", file=self._out or sys.stderr, flush=True)

    def start(self) -> "WebViewer":
        """Shows the environment on the process's Studio web viewer (starting it the
        first time) and prints the address."""
        if self._started:
            raise RuntimeError("this web viewer is started already")
        studio = self._studio
        with _studio_lock:
            if _studio is not studio:
                raise RuntimeError("the process's web viewer was shut down; start a new process")
            if studio.user is not None:
                raise RuntimeError(
                    "another WebViewer drives this process's web viewer: close() it first "
                    "(MuJoCo Studio runs one web viewer per process)"
                )
            studio.user = self
        if studio.handle is None:
            studio.start(self._title)
        studio.loop.attach(self._controller, self._report)
        studio.loop.show_model()
        self._started = True
        self._print_banner()
        return self

    def _print_banner(self) -> None:
        lines = [f"composer_tasks viewer ({self._title}) at:", f"  {self.url}"]
        if self.token is not None:
            lines += [
                "The token in this address is required on every connection; it is",
                "printed only here. Anyone with the address can watch and control",
                "the simulation: share it as you would a password.",
            ]
        else:
            lines += [
                f"Bound to {self.host} only: other machines cannot connect; other users",
                "of this machine can. From another machine, tunnel the port over SSH",
                f"(ssh -N -L {self.port}:localhost:{self.port} THIS_HOST; docs/viewer.md).",
            ]
        print("\n".join(lines), file=self._out or sys.stdout, flush=True)

    def open_browser(self) -> bool:
        """Opens the page in this machine's browser; says so and returns False when
        there is none (the viewer keeps serving)."""
        try:
            opened = webbrowser.get().open(self.url, new=2)
        except webbrowser.Error:
            opened = False
        if not opened:
            self._report(
                f"no web browser found on this machine; open {self.url} in a browser "
                f"that can reach it (from another machine, over an SSH tunnel: "
                f"docs/viewer.md). The viewer keeps serving."
            )
        return opened

    def step_loop(self) -> bool:
        """Runs one sync (the environment's steps due, the state to the page);
        False once this viewer is closed or Studio's has stopped."""
        if not self._started:
            raise RuntimeError("start() the web viewer first")
        handle = self._studio.handle
        if self._stop.is_set() or handle is None or not handle.is_running():
            return False
        # The loop's StepEvent handler steps the environment and hands Studio a
        # new model when a reset brought one (`EnvironmentLoop.show_model`).
        handle.sync()
        return True

    def run(self, duration: float | None = None) -> int:
        """Drives the environment on this thread until Ctrl+C, `close()`, or
        `duration` seconds of wall time; returns the control steps taken."""
        if not self._started:
            self.start()
        deadline = None if duration is None else time.monotonic() + duration
        try:
            while self.step_loop():
                if deadline is not None and time.monotonic() >= deadline:
                    break
        except KeyboardInterrupt:
            self._report("stopped (Ctrl+C)")
        steps = self._studio.loop.steps
        if self._thread is None:
            self.close()
        return steps

    def run_in_background(self) -> "WebViewer":
        """Drives the environment from a daemon thread; returns at once. Do not use
        the environment elsewhere until `close()`."""
        if self._thread is not None:
            raise RuntimeError("this web viewer runs in the background already")
        if not self._started:
            self.start()
        self._thread = threading.Thread(
            target=self._background, name="composer_tasks viewer", daemon=True
        )
        self._thread.start()
        return self

    def _background(self) -> None:
        while self.step_loop():
            pass

    def close(self) -> None:
        """Stops driving the environment and hands the Studio viewer back (it keeps
        serving the last frame; `shutdown()` ends it)."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10.0)
        studio = self._studio
        with _studio_lock:
            if studio.user is self:
                studio.loop.attach(None)
                studio.user = None

    def __enter__(self) -> "WebViewer":
        return self

    def __exit__(self, *exception_info: Any) -> None:
        self.close()

    def _repr_html_(self) -> str:
        return _page_html(self.url)


def _page_html(url: str, height: int = 600) -> str:
    return (
        f'<iframe src="{url}" width="100%" height="{height}" style="border:0" '
        f'allow="cross-origin-isolated"></iframe>'
        f'<p><a href="{url}" target="_blank">Open the viewer in its own tab</a></p>'
    )


def launch(
    env: Any,
    policy: Callable | str | os.PathLike | None = None,
    *,
    copy: int | None = None,
    host: str = LOOPBACK,
    port: int = 0,
    paused: bool = False,
    speed: float = 1.0,
    require_token: bool | None = None,
    open_browser: bool = False,
    duration: float | None = None,
) -> int:
    """Serves `env` run by `policy` to browsers until Ctrl+C; returns the steps taken."""
    viewer = WebViewer(
        env,
        policy,
        copy=copy,
        host=host,
        port=port,
        paused=paused,
        speed=speed,
        require_token=require_token,
    )
    viewer.start()
    if open_browser:
        viewer.open_browser()
    return viewer.run(duration=duration)


def show(
    env: Any,
    policy: Callable | str | os.PathLike | None = None,
    *,
    height: int = 600,
    **kwargs: Any,
) -> WebViewer:
    """In a notebook: serves `env` from a background thread and displays the page
    inline (and a link to open it in its own tab); returns the `WebViewer` (call
    `close()` when done). Keyword arguments are `WebViewer`'s."""
    viewer = WebViewer(env, policy, **kwargs).run_in_background()
    try:
        from IPython import display
    except ImportError:
        viewer._report(
            f"IPython is not installed, so nothing is displayed inline; open {viewer.url}"
        )
        return viewer
    display.display(display.HTML(_page_html(viewer.url, height)))
    return viewer
