"""A cluster or cloud command told to use one that runs on this machine.

kind, k3d, minikube, Docker Desktop, OrbStack, Rancher Desktop and Colima name the
kubeconfig contexts they make after themselves (``kind-dev``, ``k3d-demo``, ``minikube``):
``kubectl --context kind-dev apply -f x.yaml`` changes a cluster in a container here, made
for the work and thrown away after it, not one others share. The AWS CLI pointed at
LocalStack (``--endpoint-url http://localhost:4566``, or ``awslocal``) changes an emulator
here the same way, and so do Firebase's commands sent to its emulators (an
``*_EMULATOR_HOST`` setting, or a ``demo-*`` project, which only the emulators serve) and
Hasura's at a loopback ``--endpoint``. Such a piece is marked `LOCAL_CLUSTER`, and the
pack's asks and denies about a cluster's or an account's changes leave it alone. Only the
context or endpoint the command names counts (the current context is the kubeconfig's,
unseen here), and it is never granted by this: the host decides."""

from __future__ import annotations

import re

from amplifier_hooks.guard.model import Piece

__all__ = ["CLUSTER_TOOLS", "LOCAL_CLUSTER", "mark_local_clusters"]

LOCAL_CLUSTER = "@local-cluster"
CLUSTER_TOOLS = frozenset({"kubectl", "helm", "helmfile", "oc", "kubectx", "aws", "awslocal",
                           "firebase", "hasura"})  # fmt: skip
_CONTEXT_OPTIONS = frozenset({"--context", "--kube-context"})
_LOCAL_ENDPOINT = re.compile(
    r"^https?://(?:localhost|127\.0\.0\.1|\[::1\]|localstack)(?::\d+)?(?:/|$)"
)
_EMULATORS = ("FIRESTORE_EMULATOR_HOST=", "FIREBASE_DATABASE_EMULATOR_HOST=",
              "FIREBASE_AUTH_EMULATOR_HOST=", "FIREBASE_STORAGE_EMULATOR_HOST=")  # fmt: skip
_LOCAL = re.compile(
    r"^(?:kind-[\w.-]+|k3d-[\w.-]+|minikube|docker-desktop|docker-for-desktop|orbstack"
    r"|rancher-desktop|colima(?:-[\w.-]+)?|microk8s|kind)$"
)


def mark_local_clusters(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """``pieces`` with each cluster command that names a local cluster's context marked."""
    out: list[Piece] | None = None
    for index, piece in enumerate(pieces):
        if piece.program in ("aws", "awslocal"):
            local = piece.program == "awslocal" or _local_endpoint(piece.args)
        elif piece.program == "firebase":
            local = any(setting.startswith(_EMULATORS) for setting in piece.env) or _demo(
                piece.args
            )
        elif piece.program == "hasura":
            local = _local_endpoint(piece.args, "--endpoint")
        else:
            local = piece.program in CLUSTER_TOOLS and _local_context(piece.args)
        if local:
            out = out or list(pieces)
            out[index] = piece._replace(wrappers=(*piece.wrappers, LOCAL_CLUSTER))
    return pieces if out is None else tuple(out)


def _local_context(args: tuple[str, ...]) -> bool:
    """Whether every context ``args`` name is a local cluster's (and one is named)."""
    named = _values(args, _CONTEXT_OPTIONS)
    return bool(named) and all(_LOCAL.match(name) for name in named)


def _local_endpoint(args: tuple[str, ...], option: str = "--endpoint-url") -> bool:
    """Whether every endpoint the AWS CLI (Hasura's: ``--endpoint``) is given is on this
    machine (LocalStack's): the last one given is the one it uses, so a second one
    elsewhere is no local call."""
    urls = _values(args, frozenset({option}))
    return bool(urls) and all(_LOCAL_ENDPOINT.match(url) for url in urls)


def _demo(args: tuple[str, ...]) -> bool:
    """Whether every project a firebase command names is a ``demo-*`` one (and one is)."""
    named = _values(args, frozenset({"--project"}))
    named += [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-P"]
    return bool(named) and all(name.startswith("demo-") for name in named)


def _values(args: tuple[str, ...], options: frozenset[str]) -> list[str]:
    """The values ``args`` give the long options ``options`` (``--opt V``, ``--opt=V``)."""
    found: list[str] = []
    for index, arg in enumerate(args):
        option, eq, value = arg.partition("=")
        if option in options:
            found.append(value if eq else (args[index + 1] if index + 1 < len(args) else ""))
    return found
