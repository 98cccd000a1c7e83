"""The CMU motion-capture clips fitted to the CMU humanoid, as DeepMind publishes them.

Carnegie Mellon University's database (http://mocap.cs.cmu.edu/, free to copy and
redistribute) was fitted by DeepMind onto dm_control's CMU humanoid and exported as
one HDF5 file per humanoid version (`loader.HDF5TrajectoryLoader` reads them). The
file names, sizes, SHA-256 digests and the download address are dm-control
1.0.50's (`locomotion/mocap/cmu_mocap_data.py`). `get_path_for_cmu` returns a
cached copy, looked for beside this module and in `~/.dm_control/` (the cache
dm_control uses, so a file it downloaded is found), else downloads it (about
480 MB) into the first of those folders that is writable and checks its digest.
"""

from __future__ import annotations

import hashlib
import os
import urllib.request

H5_FILENAME = {"2019": "cmu_2019_08756c01.h5", "2020": "cmu_2020_dfe3e9e0.h5"}
H5_PATHS = {
    version: (
        os.path.join(os.path.dirname(__file__), name),
        os.path.join("~/.dm_control", name),
    )
    for version, name in H5_FILENAME.items()
}
H5_URL_BASE = "https://storage.googleapis.com/dm_control/"
H5_URL = {version: H5_URL_BASE + name for version, name in H5_FILENAME.items()}
H5_BYTES = {"2019": 488143314, "2020": 476559420}
H5_SHA256 = {
    "2019": "08756c01cb4ac20da9918e70e85c32d4880c6c8c16189b02a18b79a5e79afa2b",
    "2020": "dfe3e9e0b08d32960bdafbf89e541339ca8908a9a5e7f4a2c986362890d72863",
}
_CHUNK_BYTES = 100 * 1024


def _check_version(version: str) -> None:
    if version not in H5_FILENAME:
        raise ValueError(
            f"CMU mocap data version must be one of {sorted(H5_FILENAME)}, got {version!r}"
        )


def _cached_path(version: str) -> str | None:
    """A candidate path holding a file of the right size, or None."""
    for path in H5_PATHS[version]:
        expanded = os.path.expanduser(path)
        try:
            if os.path.getsize(expanded) == H5_BYTES[version]:
                with open(expanded, "rb"):
                    return expanded
        except OSError:
            continue
    return None


def _download_into(handle: object, version: str) -> None:
    import tqdm

    digest = hashlib.sha256()
    with urllib.request.urlopen(H5_URL[version]) as response:
        total = int(response.headers.get("Content-Length", 0)) or None
        with tqdm.tqdm(
            desc="Downloading CMU mocap data", total=total, unit_scale=True, unit_divisor=1024
        ) as progress:
            while chunk := response.read(_CHUNK_BYTES):
                handle.write(chunk)  # type: ignore[attr-defined]
                digest.update(chunk)
                progress.update(len(chunk))
    if digest.hexdigest() != H5_SHA256[version]:
        raise RuntimeError(
            f"the downloaded CMU mocap file {H5_URL[version]} is corrupted (SHA-256 "
            f"{digest.hexdigest()}, expected {H5_SHA256[version]})"
        )


def _download_and_cache(version: str) -> str:
    for path in H5_PATHS[version]:
        expanded = os.path.expanduser(path)
        try:
            os.makedirs(os.path.dirname(expanded), exist_ok=True)
            handle = open(expanded, "wb+")
        except OSError:
            continue
        with handle:
            try:
                _download_into(handle, version)
            except BaseException:
                os.unlink(expanded)
                raise
        return expanded
    raise OSError(f"cannot open a file to write the CMU mocap data into; tried {H5_PATHS[version]}")


def get_path_for_cmu(version: str = "2020") -> str:
    """The local path of the CMU data fitted to CMU humanoid `version` ("2019" or
    "2020"), downloading it first if no cached copy exists.

    Raises:
      ValueError: `version` is neither "2019" nor "2020".
      OSError: no candidate folder is writable, or the download fails.
      RuntimeError: the downloaded file's digest is wrong (the file is removed).
    """
    _check_version(version)
    path = _cached_path(version)
    if path is None:
        path = _download_and_cache(version)
    return path
