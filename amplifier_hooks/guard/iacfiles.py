"""Infrastructure code: files a deploy applies to machines and networks outside this one.

A Terraform or OpenTofu file (``.tf``, ``.tfvars``), a Pulumi stack, a CloudFormation or
Bicep template says what a cloud account holds, and the manifests of a GitOps tree
(``clusters/prod-eu/``, kustomize's ``overlays/``) and a Helm chart's templates
(``charts/api/templates/``) what a cluster runs; ``terraform
apply`` (often run by CI when the change merges) or Argo CD's and Flux's sync makes it
so, out of the guard's sight. So a write into one is never granted (`grant` withholds it:
the host decides), and text that opens a network to every address on the internet
(``0.0.0.0/0``, ``::/0``) is asked, on every route that writes it (a file tool, a patch,
a shell write or ``sed -i``): the rule ``iac-open-to-world``.
"""

from __future__ import annotations

import posixpath
import re

from amplifier_hooks.guard.model import Piece

__all__ = ["WORLD_OPEN", "iac_file", "iac_pieces"]

WORLD_OPEN = "@iac-world-open"
"""The mark of infrastructure text that lets every address on the internet in."""

_SUFFIXES = (".tf", ".tf.json", ".tfvars", ".tfvars.json", ".tofu", ".tofu.json", ".bicep",
             ".cfn.yaml", ".cfn.yml", ".cfn.json")  # fmt: skip
"""Names that are infrastructure code whatever folder holds them."""
_PULUMI = re.compile(r"^Pulumi(?:\.[\w-]+)?\.ya?ml$")
_TEMPLATE_FOLDERS = frozenset({"cloudformation", "cfn"})
"""Folders whose YAML and JSON files are CloudFormation templates by convention."""
_GITOPS_FOLDERS = frozenset({"clusters", "gitops", "argocd", "argo-cd", "flux", "flux-system",
                             "fleet", "overlays", "environments", "helmfile.d"})  # fmt: skip
"""Folders whose YAML a GitOps controller (Argo CD, Flux, Fleet) applies to clusters once
it is merged, or kustomize's overlays and environments it applies per cluster."""
_EVERY_ADDRESS = re.compile(r"(?<![\d.])0\.0\.0\.0/0(?!\d)|(?<![:\w])::/0(?!\d)")
"""A CIDR block of every IPv4 or IPv6 address."""


def iac_file(path: str) -> str | None:
    """The tool that applies the infrastructure file at ``path`` (None: it is none)."""
    folder, name = posixpath.split(path)
    lowered = name.lower()
    if lowered.endswith(_SUFFIXES):
        if lowered.endswith(".bicep"):
            return "Azure's deploy (Bicep)"
        if ".cfn." in lowered:
            return "CloudFormation"
        return "terraform (or OpenTofu) apply"
    if _PULUMI.match(name):
        return "pulumi up"
    if lowered in ("serverless.yml", "serverless.yaml", "serverless.ts"):
        return "serverless deploy"
    parent = posixpath.basename(folder).lower()
    data = lowered.endswith((".yaml", ".yml", ".json"))
    if parent in _TEMPLATE_FOLDERS and data:
        return "CloudFormation"
    if data and not _GITOPS_FOLDERS.isdisjoint(folder.lower().split("/")):
        return "a GitOps controller (Argo CD, Flux)"
    chart = "/charts/" in f"/{folder}/" and lowered.endswith((".yaml", ".yml", ".tpl"))
    if parent == "templates" and (chart or name == "_helpers.tpl"):
        return "helm (a chart's templates, in every cluster it is installed in)"
    return None


def iac_pieces(path: str, text: str) -> tuple[Piece, ...]:
    """A piece marked `WORLD_OPEN` when ``text``, written into the infrastructure file at
    ``path``, names every address as a network's range (none otherwise)."""
    tool = iac_file(path)
    if tool is None or not _EVERY_ADDRESS.search(text):
        return ()
    why = f"{path} is infrastructure code {tool} applies outside this machine"
    return (Piece(text=path, program="true", wrappers=(WORLD_OPEN,), doubt=why),)
