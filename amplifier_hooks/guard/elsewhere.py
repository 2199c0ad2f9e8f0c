"""Words that name things on another machine, not files here.

Two classes of command hand words to something that is not this machine's file system:

- **a command run in a container** (``docker exec web ls -la /app``, ``kubectl exec -n
  staging deploy/api -- cat /app/x``): the command and its paths are the container's. It
  writes nothing here, so no word of it is a write on this machine. Its words are still
  read as paths, so that a container's secrets (``/run/secrets/**``, a service account's
  token) printed where the model reads them stay denied; the pack's rules on ``exec``
  (a cluster change, a container's environment) judge the rest.
- **a cloud service whose operands are its resources' names** (``aws logs tail
  /aws/lambda/api``: a log group is named like a path and is none): no operand is a file,
  only a ``file://`` or ``fileb://`` value (``--cli-input-json file://x.json``), which the
  call reads.

Anything else about these calls (the network, the pack's rules on the service) is judged
as before; only the misreading of a name as a path here is removed.
"""

from __future__ import annotations

from amplifier_hooks.guard.table.commanders import global_read

__all__ = ["ELSEWHERE", "cloud_names", "runs_in_container"]

_EXECUTORS = frozenset({"docker", "podman", "nerdctl", "kubectl", "oc"})
_EXECS = (("exec",), ("container", "exec"), ("compose", "exec"))
"""The commands that run a command in a running container (`docker compose exec SERVICE
CMD`: the service's container)."""

_LOOKING = frozenset({"inspect", "logs", "ps", "images", "stats", "top", "port", "history",
                      "version", "info"})  # fmt: skip
_GOVC_LOOKS = frozenset(
    {"ls", "find", "tree", "about", "events", "logs", "vm.info", "vm.ip", "host.info",
     "datastore.info", "datastore.ls", "snapshot.tree", "object.collect", "session.ls",
     "cluster.usage", "pool.info", "folder.info", "device.info", "device.ls", "tags.ls",
     "role.ls", "permissions.ls", "vm.network.ls"}
)  # fmt: skip
"""vSphere's looks (govc): their operands are the inventory's paths (``/Lab/vm/dev``)."""
_NAMING_SERVICES: dict[str, frozenset[str]] = {
    "aws": frozenset(
        {
            "logs",
            "ssm",
            "kms",
            "secretsmanager",
            "ec2",
            "iam",
            "sts",
            "rds",
            "dynamodb",
            "sqs",
            "sns",
            "ecs",
            "eks",
            "route53",
            "cloudwatch",
            "sso",
            "organizations",
            "elbv2",
            "elb",
            "autoscaling",
            "acm",
            "cloudtrail",
            "events",
            "backup",
            "dlm",
            "ecr",
            "cloudfront",
            "ses",
            "sesv2",
            "cognito-idp",
            "guardduty",
            "securityhub",
            "ce",
            "budgets",
            "elasticache",
            "redshift",
            "batch",
            "codebuild",
            "codepipeline",
            "wafv2",
            "route53domains",
            "iam-identitycenter",
            "identitystore",
            "ram",
            "servicequotas",
        }
    ),
    "gh": frozenset({"pr", "issue", "run", "workflow", "label", "search", "status", "api"}),
    "az": frozenset(
        {
            "monitor",
            "vm",
            "group",
            "resource",
            "network",
            "aks",
            "webapp",
            "functionapp",
            "sql",
            "cosmosdb",
            "role",
            "account",
            "policy",
            "acr",
            "vmss",
            "appservice",
            "containerapp",
            "lock",
            "tag",
        }
    ),
    "docker": _LOOKING,
    "podman": _LOOKING,
    "pvesh": frozenset({"get", "ls", "usage"}),
    "govc": _GOVC_LOOKS,
}
"""Per program, the services whose operands name resources (never files here): AWS's
that take no file but by ``file://`` (``aws ssm get-parameters-by-path --path /dev/app``
names parameters, not a device). ``aws s3``
(``cp`` and ``sync`` of local files) and ``aws lambda invoke OUTFILE`` are not listed:
their operands can be local files; nor are ``gh gist``, ``gh release`` (they upload the
files named). GitHub's pull requests, issues, runs and
workflows are named by numbers, branches and text (``--body "$(cat <<EOF ..)"``), and
``gh api``'s endpoint (``/orgs/acme/members``) by its path on the API; a body
read from a file (``--body-file F``, ``-F F``, ``-F key=@F``) is a file the call reads,
and ``gh run download`` (it writes the run's files here) is read as before. Docker's
looks (``docker inspect $(docker ps -aq)``) name containers and images; Proxmox's API
reads (``pvesh get /cluster/resources``) and vSphere's inventory looks (``govc ls
/Lab/vm/dev``) name the API's and the inventory's paths; Azure's resource ids
(``az vm show --ids /subscriptions/...``) are the same, and a file it reads is given as
``@FILE``."""
_FILE_VALUES = ("file://", "fileb://")
_FILE_OPTIONS = frozenset({"-F", "--body-file", "--input", "--raw-field", "--field"})
"""gh's options whose value is (or holds, after ``=@``) a file the call reads."""
_WRITING = frozenset({("gh", "run", "download")})
ELSEWHERE = _EXECUTORS | frozenset(_NAMING_SERVICES)
"""The programs this module reads (for any other `runs_in_container` is False and
`cloud_names` None)."""


def runs_in_container(program: str | None, args: tuple[str, ...]) -> bool:
    """Whether ``program args`` runs a command in a container or a pod (``exec``)."""
    if program not in _EXECUTORS:
        return False
    top = global_read(program, args)
    if top is not None:
        words = top.operands
    else:  # podman, nerdctl, oc: their own options are read past as dashed words
        start = next((i for i, a in enumerate(args) if a[:1] != "-"), len(args))
        words = args[start:]
    return any(words[: len(e)] == e for e in _EXECS)


def cloud_names(program: str | None, args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words that are files here when ``program args`` calls a service whose operands
    are names (the ``file://`` values, as paths); None for any other call."""
    services = _NAMING_SERVICES.get(program or "")
    if services is None:
        return None
    service = next((a for a in args if a[:1] != "-"), None)
    if service not in services or _valued_before(args, service):
        return None
    rest = args[args.index(service) + 1 :]
    if rest and (program, service, rest[0]) in _WRITING:
        return None
    found: list[str] = []
    for option, arg in zip(("", *args), args, strict=False):
        if program == "gh" and option in _FILE_OPTIONS:
            found.append(arg.partition("=@")[2] if "=@" in arg else arg.removeprefix("@"))
            continue
        if program == "gh" and arg.startswith(tuple(f"{o}=" for o in _FILE_OPTIONS)):
            value = arg.partition("=")[2]
            found.append(value.partition("=@")[2] if "=@" in value else value.removeprefix("@"))
            continue
        if program == "gh" and arg.startswith("-F") and len(arg) > 2:  # `-Fnotes.md`
            found.append(arg[2:].partition("=@")[2] if "=@" in arg else arg[2:].removeprefix("@"))
            continue
        value = arg.partition("=")[2] if arg.startswith("--") and "=" in arg else arg
        if program == "az" and value.startswith("@") and len(value) > 1:
            found.append(value[1:])  # (`--scripts @run.sh`: a file read)
            continue
        for prefix in _FILE_VALUES:
            if value.startswith(prefix):
                found.append(value[len(prefix) :])
    return tuple(found)


def _valued_before(args: tuple[str, ...], service: str) -> bool:
    """Whether a dashed word before ``service`` may take it as its value (``aws --profile
    logs s3 cp ...``): then the service is not known, and the call is read as before."""
    index = args.index(service)
    return index > 0 and args[index - 1].startswith("--") and "=" not in args[index - 1]
