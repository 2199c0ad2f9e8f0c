"""What destroys a whole environment or store of data outside this machine, per CLI: one
row per command, with what must hold for no safety net to remain.

The asked cloud and cluster changes (the pack's ``cloud-change``, ``cluster-change``,
``infrastructure-change``, ``publish-package``...) leave the person a question. These
rows are the part of them that takes away the whole of something and leaves nothing to
answer with: a stack or workspace destroyed with its plan's question skipped, a
project, resource group or cluster deleted, a bucket removed with its objects, a database
deleted without a final snapshot, a namespace or every resource of a kind, a package
unpublished entirely. `wipes` reads a command against them.

A row's ``off`` names the options that switch the tool's own question off (one must be
given; None: the tool asks none, as ``aws``, ``kubectl`` and ``gsutil`` never do). While
the tool still asks, the person answers it, so the command stays asked, not denied.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CLIS", "PROTECTION_OFF", "Cli", "Wipe"]


class Wipe(NamedTuple):
    """One command that destroys wholesale, and the conditions that make it so."""

    off: tuple[str, ...] | None = None
    """Options that answer the tool's own question (one must be given); None: it asks none."""
    needs: tuple[str, ...] = ()
    """Options one of which must be given for the loss to be whole (``s3 rb --force``:
    the objects too; ``--skip-final-snapshot``: no copy kept); empty: none needed."""
    narrow: tuple[str, ...] = ()
    """Options that narrow the command to named resources or keep a copy (``-target``,
    ``--retain-resources``, ``--cascade=false``, rclone's filters): none may be given."""
    root: str = ""
    """Which operand must be a bucket's or remote's root (``s3://b``, ``gdrive:``):
    ``any``, or ``last`` (a sync's destination); one that names every object
    (``gs://b/**``) needs no ``needs``."""
    kinds: frozenset[str] = frozenset()
    """The kinds one of which the next word names (kubectl's ``namespace``, ``ns``)."""
    guarded: bool = False
    """A database delete: deletion protection switched off in the same command counts as
    ``needs`` met (``modify-db-instance --no-deletion-protection && delete-db-instance``)."""
    whole: bool = False
    """A package operand must name the package without a version (npm's whole package)."""
    empty: bool = False
    """A sync whose source (its first operand) is a folder the same command made
    (``mkdir -p /tmp/empty && aws s3 sync /tmp/empty s3://b --delete``): holding
    nothing, it deletes everything under the destination."""


class Cli(NamedTuple):
    """How one CLI spells its commands."""

    rows: dict[tuple[str, ...], Wipe | tuple[Wipe, ...]]
    """Command words -> the wholesale destroy they name (or several ways to be one)."""
    valued: frozenset[str] = frozenset()
    """Options that take the next word as their value (never a command word)."""
    go: bool = False
    """Options read as Go's flag package reads them: ``--auto-approve`` is ``-auto-approve``."""
    skip: frozenset[str] = frozenset()
    """Leading words that only pick a release track (gcloud's ``alpha``, ``beta``)."""
    preview: frozenset[str] = frozenset()
    """Options beyond the common dry runs that make the command change nothing."""
    colons: bool = False
    """Command words may be spelled with colons (``heroku apps:destroy``)."""
    clusters: bool = False
    """One-letter options may be written together (``gsutil rsync -rd``: ``-r -d``)."""
    answer: str = ""
    """The word that, piped in (``echo yes | terraform destroy``), answers the tool's
    question; empty: the tool takes no answer from a pipe (gcloud, az and pulumi check
    for a terminal and stop without one)."""


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


PROTECTION_OFF = frozenset({"--no-deletion-protection", "--deletion-protection=false",
                            "--no-enable-deletion-protection"})  # fmt: skip
"""Options that switch a database's deletion protection off (aws rds, gcloud sql)."""

_YES = ("--yes", "-y")
_FORCE = ("--force", "-f")
_QUIET = ("--quiet", "-q")
_TF_VALUED = _set("-var -var-file -target -replace -lock-timeout -parallelism -state "
                  "-state-out -backup -chdir")  # fmt: skip
_TF = Cli(
    {("destroy",): Wipe(off=("-auto-approve",), narrow=("-target",)),
     ("apply",): Wipe(off=("-auto-approve",), needs=("-destroy",), narrow=("-target",))},
    valued=_TF_VALUED, go=True, answer="yes",
)  # fmt: skip
_NON_INTERACTIVE = ("-terragrunt-non-interactive", "-non-interactive")
_TERRAGRUNT = Cli(
    {("destroy",): Wipe(off=("-auto-approve",), narrow=("-target",)),
     ("run-all", "destroy"): Wipe(off=_NON_INTERACTIVE, narrow=("-target",)),
     ("run", "destroy"): Wipe(off=_NON_INTERACTIVE, narrow=("-target",))},
    valued=_TF_VALUED | _set("-terragrunt-working-dir -working-dir -terragrunt-config"),
    go=True,
)  # fmt: skip
_PULUMI_DESTROY = Wipe(off=_YES, narrow=("--target", "-t", "--exclude"))
_PULUMI = Cli(
    {("destroy",): _PULUMI_DESTROY, ("down",): _PULUMI_DESTROY,
     ("stack", "rm"): Wipe(off=_YES, needs=_FORCE)},
    valued=_set("-s --stack -C --cwd --target -t --exclude -m --message --config-file "
                "-p --parallel"),
)  # fmt: skip
_CDK = Cli({("destroy",): Wipe(off=_FORCE)},
           valued=_set("--profile -c --context -a --app --role-arn -o --output"))  # fmt: skip
_CDKTF = Cli({("destroy",): Wipe(off=("--auto-approve",))}, valued=_set("-a --app -o --output"))
_SERVERLESS = Cli(
    {("remove",): Wipe()},  # it asks nothing: the stage's whole stack goes
    valued=_set("-s --stage -r --region -c --config --aws-profile --app --org"),
)
_K8S_VALUED = _set(
    "-n --namespace --context --cluster --kubeconfig -l --selector -o --output "
    "--field-selector --grace-period --timeout -f --filename -s --server --user --token --as "
    "--as-group --request-timeout -k --kustomize"
)
_KUBECTL = Cli(
    {("delete",): Wipe(needs=("--all",), narrow=("-i", "--interactive")),
     # a namespace, or a volume (claim), whose disk goes with it (a dynamic volume's
     # default reclaim policy is Delete)
     ("delete", "*"): Wipe(kinds=_set("namespace namespaces ns project projects pvc pv "
                                      "persistentvolumeclaim persistentvolumeclaims "
                                      "persistentvolume persistentvolumes"),
                           narrow=("-i", "--interactive"))},
    valued=_K8S_VALUED,
)  # fmt: skip
_ARGOCD = Cli(
    {("app", "delete"): Wipe(off=_YES, narrow=("--cascade=false",))},
    valued=_set("--server --auth-token -N --app-namespace -p --propagation-policy "
                "--grpc-web-root-path --config --core"),
)  # fmt: skip
_EKSCTL = Cli({("delete", "cluster"): Wipe()},
              valued=_set("-n --name -r --region -f --config-file --profile"))  # fmt: skip
_SNAPSHOT = ("--skip-final-snapshot",)
_AWS = Cli(
    {("s3", "rb"): Wipe(needs=("--force",)),
     ("s3", "rm"): Wipe(needs=("--recursive",), root="any", narrow=("--exclude", "--include")),
     ("rds", "delete-db-instance"): Wipe(needs=_SNAPSHOT, guarded=True),
     ("rds", "delete-db-cluster"): Wipe(needs=_SNAPSHOT, guarded=True),
     ("docdb", "delete-db-cluster"): Wipe(needs=_SNAPSHOT, guarded=True),
     ("neptune", "delete-db-cluster"): Wipe(needs=_SNAPSHOT, guarded=True),
     ("redshift", "delete-cluster"): Wipe(needs=("--skip-final-cluster-snapshot",),
                                          guarded=True),
     ("dynamodb", "delete-table"): Wipe(),
     ("cloudformation", "delete-stack"): Wipe(narrow=("--retain-resources",)),
     ("eks", "delete-cluster"): Wipe(),
     ("ecr", "delete-repository"): Wipe(needs=("--force",)),
     ("opensearch", "delete-domain"): Wipe(),
     ("es", "delete-elasticsearch-domain"): Wipe(),
     ("route53", "delete-hosted-zone"): Wipe(),
     ("organizations", "close-account"): Wipe(),
     ("s3", "sync"): Wipe(needs=("--delete",), empty=True, narrow=("--exclude", "--include"))},
    valued=_set("--profile --region --output --query --endpoint-url --color --ca-bundle "
                "--cli-read-timeout --cli-connect-timeout --cli-binary-format"),
)  # fmt: skip
_G = Wipe(off=_QUIET)
_GCLOUD = Cli(
    {("projects", "delete"): _G, ("sql", "instances", "delete"): _G,
     ("sql", "databases", "delete"): _G, ("container", "clusters", "delete"): _G,
     ("spanner", "instances", "delete"): _G, ("spanner", "databases", "delete"): _G,
     ("bigtable", "instances", "delete"): _G, ("firestore", "databases", "delete"): _G,
     ("alloydb", "clusters", "delete"): _G, ("dns", "managed-zones", "delete"): _G,
     ("storage", "rm"): Wipe(needs=("--recursive", "-r", "-R"), root="any")},
    valued=_set("--project --zone --region --format --account --configuration --location "
                "--impersonate-service-account --verbosity --instance"),
    skip=_set("alpha beta"), preview=_set("--validate-only"),
)  # fmt: skip
_GSUTIL = Cli(
    {("rm",): Wipe(needs=("-r", "-R"), root="any"),
     ("rsync",): Wipe(needs=("-d",), empty=True, narrow=("-n", "-x", "-y"))},
    valued=_set("-o -h -u -p -i -x -y"), clusters=True,
)  # fmt: skip
_BQ = Cli(  # a data set with every table in it, with bq's question answered
    {("rm",): Wipe(off=_FORCE, needs=("-r", "--recursive"))},
    valued=_set("--project_id --location --format --api --dataset_id --api_version"),
)
_A = Wipe(off=_YES)
_AZ = Cli(
    {("group", "delete"): _A, ("aks", "delete"): _A, ("sql", "server", "delete"): _A,
     ("sql", "db", "delete"): _A, ("cosmosdb", "delete"): _A,
     ("storage", "account", "delete"): _A, ("postgres", "flexible-server", "delete"): _A,
     ("postgres", "server", "delete"): _A, ("mysql", "flexible-server", "delete"): _A,
     ("mysql", "server", "delete"): _A, ("network", "dns", "zone", "delete"): _A,
     ("account", "subscription", "cancel"): _A,
     ("storage", "container", "delete"): Wipe(),  # the container with every blob
     ("storage", "blob", "delete-batch"): Wipe(narrow=("--pattern",))},
    valued=_set("-n --name -g --resource-group --subscription -o --output --query "
                "--account-name -s --source --server --account-key --auth-mode"),
)  # fmt: skip
_D = Wipe(off=_FORCE)
_DOCTL = Cli(
    {("databases", "delete"): _D, ("kubernetes", "cluster", "delete"): _D,
     ("k8s", "cluster", "delete"): _D, ("compute", "domain", "delete"): _D},
    valued=_set("--context -t --access-token -o --output --format"),
)  # fmt: skip
_FILTERS = ("--include", "--exclude", "--filter", "--filter-from", "--include-from",
            "--exclude-from", "--files-from", "--min-age", "--max-age", "--min-size",
            "--max-size", "--max-delete", "--backup-dir", "-i", "--interactive")  # fmt: skip
_RCLONE = Cli(
    {("purge",): Wipe(narrow=("-i", "--interactive")),
     ("delete",): Wipe(narrow=_FILTERS),
     ("sync",): (Wipe(root="last", narrow=_FILTERS), Wipe(empty=True, narrow=_FILTERS))},
    valued=frozenset(f for f in _FILTERS if f not in ("-i", "--interactive"))
    | _set("--config --transfers --checkers --bwlimit --log-file --log-level --suffix"),
    preview=_set("-n"),
)  # fmt: skip
_S5CMD = Cli(
    {("rm",): Wipe(root="any")},
    valued=_set("--endpoint-url --profile --numworkers --log --credentials-file"),
)
_AZCOPY = Cli(
    {("sync",): Wipe(needs=("--delete-destination",), empty=True,
                     narrow=("--delete-destination=prompt", "--include-pattern",
                             "--exclude-pattern", "--include-path", "--exclude-path"))},
    valued=_set("--include-pattern --exclude-pattern --include-path --exclude-path "
                "--log-level --cap-mbps"),
)  # fmt: skip
_NPM = Cli({("unpublish",): Wipe(needs=_FORCE, whole=True)},
           valued=_set("--registry --otp -w --workspace --userconfig"))  # fmt: skip
_FLY_GONE = Wipe(off=_YES)
_FLY = Cli(
    {("apps", "destroy"): _FLY_GONE, ("destroy",): _FLY_GONE, ("apps", "delete"): _FLY_GONE,
     ("postgres", "destroy"): _FLY_GONE, ("pg", "destroy"): _FLY_GONE,
     ("volumes", "destroy"): _FLY_GONE, ("volume", "destroy"): _FLY_GONE,
     ("vol", "destroy"): _FLY_GONE},
    valued=_set("-a --app -c --config -o --org -r --region"),
)  # fmt: skip
_HEROKU = Cli(
    # (``pg:reset`` is a database wipe: ``database-service-wipe``, denied for production)
    {("apps", "destroy"): Wipe(off=("--confirm",)), ("destroy",): Wipe(off=("--confirm",))},
    valued=_set("-a --app -r --remote --confirm"), colons=True,
)  # fmt: skip
_VERCEL = Cli(
    {("remove",): Wipe(off=_YES), ("rm",): Wipe(off=_YES)},
    valued=_set("--scope -t --token -A --local-config -Q --global-config"),
)
_NETLIFY = Cli({("sites", "delete"): Wipe(off=_FORCE)}, valued=_set("--auth"), colons=True)
_WRANGLER_SKIP = ("-y", "--yes", "--skip-confirmation")
_WRANGLER = Cli(
    {("delete",): Wipe(off=("--force",)),
     ("pages", "project", "delete"): Wipe(off=_WRANGLER_SKIP),
     ("d1", "delete"): Wipe(off=_WRANGLER_SKIP),
     ("kv", "namespace", "delete"): Wipe(off=_WRANGLER_SKIP)},
    valued=_set("--name -e --env -c --config --binding --namespace-id"), colons=True,
)  # fmt: skip
# Supabase's linked (remote) database reset, with its question answered (`--yes`, or `y`
# piped in): every table dropped and the migrations run again, the data gone.
_SUPABASE = Cli(
    {("storage", "rm"): Wipe(off=_YES, needs=("-r", "--recursive"), root="any",
                             narrow=("--local",)),
     ("db", "reset"): Wipe(off=_YES, needs=("--linked", "--db-url"), narrow=("--local",))},
    valued=_set("--workdir --profile --db-url"), answer="y",
)  # fmt: skip
_TURSO = Cli({("db", "destroy"): Wipe(off=_YES)}, valued=_set("--group --location"))
# Render's database deleted with its question answered (``--confirm``); Firestore's every
# collection deleted with ``--force`` (one path, ``-r PATH``, is not the whole)
_RENDER = Cli({("postgres", "delete"): Wipe(off=("--confirm",)),
               ("redis", "delete"): Wipe(off=("--confirm",)),
               ("key-value", "delete"): Wipe(off=("--confirm",))},
              valued=_set("-o --output"))  # fmt: skip
_FIREBASE = Cli({("firestore", "delete"): Wipe(off=_FORCE, needs=("--all-collections",)),
                 ("firestore", "databases", "delete"): Wipe(off=_FORCE),
                 ("database", "remove", "/"): Wipe(off=_FORCE)},  # the Realtime Database's root
                valued=_set("-P --project --database --token --instance"),
                colons=True)  # fmt: skip
# Hasura's every migration rolled back (it asks nothing): every table the project made
_HASURA = Cli({("migrate", "apply"): Wipe(needs=("--down=all",))},
              valued=_set("--endpoint --admin-secret --database-name --down --project "
                          "--envfile"))  # fmt: skip
# A forge's release with its tag, and a hub's repository, with the question answered: what
# others download (its assets, a model's files) goes, and nothing gives it back.
_GH = Cli({("release", "delete"): Wipe(off=_YES, needs=("--cleanup-tag",))},
          valued=_set("-R --repo"))  # fmt: skip
_GLAB = Cli({("release", "delete"): Wipe(off=_YES, needs=("-t", "--with-tag"))},
            valued=_set("-R --repo"))  # fmt: skip
_HUB = Cli({("repo", "delete"): Wipe(off=_YES), ("repos", "delete"): Wipe(off=_YES)},
           valued=_set("--repo-type --token"))  # fmt: skip

CLIS: dict[str, Cli] = {
    "terraform": _TF, "tofu": _TF, "terragrunt": _TERRAGRUNT, "pulumi": _PULUMI,
    "cdk": _CDK, "cdktf": _CDKTF, "serverless": _SERVERLESS, "sls": _SERVERLESS,
    "kubectl": _KUBECTL, "oc": _KUBECTL, "argocd": _ARGOCD, "eksctl": _EKSCTL,
    "aws": _AWS, "gcloud": _GCLOUD, "gsutil": _GSUTIL, "bq": _BQ, "az": _AZ, "doctl": _DOCTL,
    "rclone": _RCLONE, "s5cmd": _S5CMD, "azcopy": _AZCOPY, "npm": _NPM,
    "fly": _FLY, "flyctl": _FLY, "heroku": _HEROKU, "vercel": _VERCEL, "netlify": _NETLIFY,
    "wrangler": _WRANGLER, "turso": _TURSO, "supabase": _SUPABASE, "gh": _GH, "glab": _GLAB,
    "render": _RENDER, "firebase": _FIREBASE, "hasura": _HASURA,
    "huggingface-cli": _HUB, "hf": _HUB,
}  # fmt: skip
"""Per CLI: its command words -> the wholesale destroy they name (every row that starts
the command's words is read; ``*`` stands for the word ``kinds`` reads)."""
