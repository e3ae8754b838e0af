"""How one event reaches hookrun: `hooks serve`'s Unix socket if HOOKRUN_SOCKET names one, else
`hooks run EVENT --output json`. Either way the answer is hookrun's result object, or a Failure
that says why there is none (never an exception: gptme must go on)."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import stat
import signal
import socket
import subprocess
import urllib.parse
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

DEFAULT_TIMEOUT_S = 120.0


class Failure:
    """Why hookrun gave no result: `code` groups failures so each is shown once per session."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        # True when another way reached hookrun after this one failed: the hooks did run.
        self.recovered = False

    def __repr__(self) -> str:
        return f"Failure({self.code!r}, {self.message!r})"


Answer = Union[Dict[str, Any], Failure]


def timeout_seconds() -> float:
    raw = os.environ.get("HOOKRUN_GPTME_TIMEOUT", "")
    try:
        value = float(raw)
    except ValueError:
        return DEFAULT_TIMEOUT_S
    return value if value > 0 else DEFAULT_TIMEOUT_S


# A folder holding one of these is the project root: the walk for node_modules/.bin/hooks stops there.
PROJECT_MARKERS = (".git", "gptme.toml", "hooks.yaml", "hooks.yml", "hooks.json")


def _own(candidate: Path) -> bool:
    """Whether this user may run `candidate`: the file it resolves to, its folder and node_modules
    are this user's, and no folder of them is writable by other users. One planted by another
    user in a shared parent folder never runs."""
    if not hasattr(os, "getuid"):
        return True
    uid = os.getuid()
    try:
        for path, follow in ((candidate, True), (candidate.parent, False), (candidate.parent.parent, False)):
            st = os.stat(path) if follow else os.lstat(path)
            if st.st_uid != uid:
                return False
            if stat.S_ISDIR(st.st_mode) and st.st_mode & 0o022:
                return False
    except OSError:
        return False
    return True


def find_cli(cwd: Path) -> Optional[List[str]]:
    """HOOKRUN_BIN, else node_modules/.bin/hooks walking up from cwd no higher than the project
    root (the first folder with .git, gptme.toml or hooks.yaml) and only if it is this user's
    own, else `hooks` on PATH. Never npx: a registry fetch in the middle of a tool call is not a
    hook run."""
    explicit = os.environ.get("HOOKRUN_BIN")
    if explicit:
        if explicit.endswith((".js", ".mjs", ".cjs")):
            node = shutil.which("node")
            return [node, explicit] if node else None
        return [explicit]
    for directory in [cwd, *cwd.parents]:
        candidate = directory / "node_modules" / ".bin" / "hooks"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            if _own(candidate):
                return [str(candidate)]
            break
        if any(os.path.lexists(directory / m) for m in PROJECT_MARKERS):
            break
    found = shutil.which("hooks")
    return [found] if found else None


def _first_problem(error: Dict[str, Any]) -> Optional[str]:
    """The first diagnostic of an invalid config as `hooks validate` prints it: FILE:LINE:COL: error: message."""
    diagnostics = error.get("diagnostics")
    if not isinstance(diagnostics, list):
        return None
    found = [d for d in diagnostics if isinstance(d, dict) and isinstance(d.get("message"), str)]
    first = next((d for d in found if d.get("severity") == "error"), found[0] if found else None)
    if first is None:
        return None
    where = ":".join(str(first[k]) for k in ("file", "line", "col") if isinstance(first.get(k), (str, int)) and not isinstance(first.get(k), bool))
    severity = first.get("severity") if isinstance(first.get("severity"), str) else "error"
    return f"{where}: {severity}: {first['message']}" if where else f"{severity}: {first['message']}"


def _error_of(data: Any, fallback: str) -> Failure:
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict):
        message = str(error.get("message") or fallback)
        problem = _first_problem(error)
        # An invalid config says what is wrong, not only that it is invalid.
        if problem:
            message = f"{message}; first: {problem}"
        return Failure(str(error.get("code") or "error"), message)
    if isinstance(error, str):
        return Failure("error", error)
    return Failure("error", fallback)


def _is_result(data: Any) -> bool:
    return isinstance(data, dict) and "event" in data and "hooks" in data


def _kill_group(proc: "subprocess.Popen[bytes]") -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        try:
            proc.wait(timeout=2)
            return
        except subprocess.TimeoutExpired:
            continue


def run_cli(event: str, context: Dict[str, Any], cwd: Path) -> Answer:
    argv = find_cli(cwd)
    if argv is None:
        return Failure(
            "missing",
            "hookrun's `hooks` command was not found: install hookrun in the project "
            "(node_modules/.bin/hooks), put `hooks` on PATH, or set HOOKRUN_BIN",
        )
    limit = timeout_seconds()
    try:
        # Its own session, so a timeout kills hookrun and every hook it started, not gptme.
        proc = subprocess.Popen(
            [*argv, "run", event, "--output", "json"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(cwd),
            start_new_session=True,
        )
    except OSError as e:
        return Failure("missing", f"hookrun could not be started ({argv[-1]}): {e.strerror or e}")
    try:
        out, err = proc.communicate(json.dumps(context).encode(), timeout=limit)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        proc.communicate()
        return Failure("timeout", f"hookrun did not answer {event} within {limit:g} s (HOOKRUN_GPTME_TIMEOUT); it was stopped")
    try:
        data = json.loads(out.decode("utf-8", "replace") or "null")
    except ValueError:
        data = None
    if proc.returncode in (0, 1, 2) and _is_result(data):
        return data
    tail = err.decode("utf-8", "replace").strip().splitlines()
    return _error_of(data, tail[-1] if tail else f"hookrun exited {proc.returncode}")


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self.socket_path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(self.timeout)
            sock.connect(self.socket_path)
        except OSError:
            sock.close()
            raise
        self.sock = sock


def run_socket(path: str, event: str, context: Dict[str, Any]) -> Answer:
    limit = timeout_seconds()
    conn = _UnixConnection(path, limit)
    try:
        conn.request(
            "POST",
            "/v1/trigger/" + urllib.parse.quote(event, safe=""),
            body=json.dumps(context).encode(),
            headers={"Content-Type": "application/json"},
        )
        response = conn.getresponse()
        body = response.read()
    except socket.timeout:
        return Failure("timeout", f"hookrun's server did not answer {event} within {limit:g} s (HOOKRUN_GPTME_TIMEOUT)")
    except OSError as e:
        return Failure("socket", f"hookrun's server at {path} cannot be reached: {e.strerror or e}")
    except http.client.HTTPException as e:
        return Failure("socket", f"hookrun's server at {path} gave no valid answer: {e}")
    finally:
        conn.close()  # closing cancels nothing that finished; on a timeout it cancels the hooks
    try:
        data = json.loads(body.decode("utf-8", "replace"))
    except ValueError:
        data = None
    if response.status == 200 and _is_result(data):
        return data
    code = {403: "trust", 422: "config"}.get(response.status)
    failure = _error_of(data, f"hookrun's server answered HTTP {response.status}")
    if code:
        failure.code = code
    return failure


def trigger(event: str, context: Dict[str, Any], cwd: Path) -> List[Answer]:
    """The answer, preceded by a Failure when the socket failed and the CLI answered instead."""
    path = os.environ.get("HOOKRUN_SOCKET")
    if path:
        answer = run_socket(path, event, context)
        if not (isinstance(answer, Failure) and answer.code == "socket"):
            return [answer]
        answer.message += "; using the `hooks` command instead"
        answer.recovered = True
        return [answer, run_cli(event, context, cwd)]
    return [run_cli(event, context, cwd)]
