"""Debian packages a test tier needs on the host, installed by the project, not by hand."""

from __future__ import annotations

import os
import shutil
import subprocess


def ensure(*packages: str) -> str | None:
    """Install what is missing with apt-get (as root); why not, or None when all is there."""
    missing = [p for p in packages if not installed(p)]
    if not missing:
        return None
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return f"{' '.join(missing)} missing (apt-get as root would install it)"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    command = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *missing]
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:  # a fresh machine's package lists may be empty
        subprocess.run(["apt-get", "update", "-q"], capture_output=True, check=False, env=env)
        done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        return f"could not install {' '.join(missing)} with apt-get"
    return None


def installed(package: str) -> bool:
    if shutil.which("dpkg-query") is None:
        return shutil.which(package) is not None
    done = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True,
                          text=True, check=False)
    return "ok installed" in done.stdout
