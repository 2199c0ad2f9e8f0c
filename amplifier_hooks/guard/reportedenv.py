"""Text that hands the whole environment to what the application reports or logs.

An error reporter's hook that copies every variable into the event (``event.extra = {
...process.env }``), a Python context set from ``dict(os.environ)``, a log handler told to
``include_env: true``, an experiment tracker's run configuration given it
(``wandb.init(config={**cfg, **dict(os.environ)})``): from the next run on, every token
and password the process holds goes out with each report, to a service others read, and
the diff reads as a line of configuration. Text a write or edit adds that does so is
marked `ENVIRONMENT_REPORTED` (asked). Copying the environment for a child process
(``spawn(cmd, {env: {...process.env, X: 1}})``, ``env=dict(os.environ, X="1")``) is not:
it stays on the machine. A response made of the whole environment (``NextResponse.json({
env: process.env })``, a resolver's ``() => JSON.stringify(process.env)``), and R's
``Sys.getenv("PGPASSWORD")`` on a line of its own (R and knitr print it into the log or the
rendered report), and a browser's whole storage or cookies put in a report's extra (``{
...localStorage }``, ``document.cookie``: the session's tokens), and every setting of an
ASP.NET application returned or logged (``cfg.AsEnumerable()``: its connection strings and
keys among them), or a connection string put in a response or a log line, are marked too;
so are Go's ``os.Environ()`` and viper's ``AllSettings()`` encoded or printed, an
``expvar`` that publishes the whole configuration, and PHP's ``$_ENV``, ``$_SERVER`` or
Laravel's ``config()->all()`` in a response or a post.
"""

from __future__ import annotations

import re

__all__ = ["ENVIRONMENT_REPORTED", "reports_environment"]

ENVIRONMENT_REPORTED = "@environment-reported"
_REPORTED = re.compile(
    r"\b(?:extra|contexts?|tags|user|payload|metadata|properties|attributes|breadcrumbs?)"
    r"\s*[:=]\s*\{?\s*(?:\.\.\.|\*\*)?\s*(?:process\.env|os\.environ|dict\(\s*os\.environ\s*\)"
    r"|os\.environ\.copy\(\s*\))\s*[,}\n;)]"
    r"|\b(?:extra|contexts?|metadata|properties|config|params|hparams|hyperparameters)"
    r"\s*[:=]\s*\{[^}\n]{0,120}?(?:\*\*|\.\.\.)\s*(?:dict\(\s*os\.environ\s*\)|os\.environ\b"
    r"|process\.env\b)"
    r"|\b(?:set_context|set_extra|setContext|setExtra|setExtras|setTags|capture_message"
    r"|captureMessage|track|identify|log(?:ger)?\.\w+|wandb\.init|log_params|log_hyperparams"
    r"|config\.update)\s*\([^)]{0,80}?"
    r"(?:JSON\.stringify\(\s*process\.env\s*\)|\.\.\.process\.env|\*\*os\.environ"
    r"|dict\(\s*os\.environ\s*\)|os\.environ\.copy\(\s*\)|[,(]\s*process\.env\s*[,)]"
    r"|[,(]\s*os\.environ\s*[,)])"
    r"|\b(?:extra|contexts?|tags|user|payload|metadata)\s*[:=][^\n]{0,160}?"
    r"(?:\.\.\.\s*(?:localStorage|sessionStorage)\b|\bdocument\.cookie\b)"
    r"|(?:=>|\breturn\b)\s*(?:JSON\.stringify\(\s*)?(?:process\.env|os\.environ"
    r"|dict\(\s*os\.environ\s*\))\s*\)?\s*(?:[,;}]|$)"  # a handler's answer, whole
    r"|\b(?:json|jsonify|send|JSONResponse|Response)\s*\(\s*\{?[^()\n]{0,40}?"
    r"(?:process\.env|os\.environ|dict\(\s*os\.environ\s*\))\s*[,)}]"
    r"|^[ \t]*(?:print\()?Sys\.getenv\((?:\s*\)|\s*[\"'][A-Z0-9_]*(?:PASS|TOKEN|SECRET|KEY|PAT)"
    r"[A-Z0-9_]*[\"']\s*\))\)?[ \t]*$"
    r"|(?:=>|\breturn\b|\b(?:Ok|Json|Results\.\w+|WriteAsJsonAsync|Log\w*|render\s+json:)"
    r"\s*\(?)[^\n]{0,60}?(?:(?:[Cc]onfig\w*|cfg)\.AsEnumerable\(\)"
    r"|\bEnvironment\.GetEnvironmentVariables\(\)|\bENV\.(?:to_h|to_hash)\b)"
    r"|\bforeach\s*\([^)\n]*\bin\s+[\w.]*\.AsEnumerable\(\)\s*\)[^\n]{0,20}\n?[^\n]{0,80}?"
    r"\b(?:Console\.Write\w*|Log\w*|\w*[Ll]ogger\.\w+)\s*\("
    r"|(?:\]\s*=|\b(?:Detail|Title|Message|Extensions)\s*=|\b(?:Ok|Json|WriteAsJsonAsync|Log\w*)\s*\()"
    r"[^\n]{0,120}?\bGetConnectionString\("
    r"|[\"']env[\"']\s*:\s*dict\(\s*os\.environ\s*\)"
    r"|\bformat!\([^\n]*env::var\(\s*\"(?:DATABASE_URL|\w*SECRET\w*|\w*PASSWORD\w*)\"\)"
    r"|\b(?:Encode|Fprint\w*|Print\w*|json|JSON|Publish|response|post|Post|send)\s*\("
    r"[^\n]{0,120}?(?:\bos\.Environ\(\)|\bviper\.AllSettings\(\)|\$_ENV\b|\$_SERVER\b"
    r"|\bconfig\(\)->all\(\)|\bSystem\.getenv\(\))"
    r"|[\"']\w+[\"']\s*=>\s*(?:\$_ENV|\$_SERVER|config\(\)->all\(\))\b"
    r"|\bexpvar\.Publish\([^\n]*\breturn\s+(?:cfg|conf|config|settings)\b"
    r"|^\s*[\"']?(?:include_env|includeEnv|include_environment|attach_env|send_env"
    r"|sendEnvironment)[\"']?\s*[:=]\s*[\"']?(?:true|yes|on|1)\b",
    re.M | re.I,
)
_MAX_TEXT = 256 * 1024


def reports_environment(text: str | None) -> bool:
    """Whether ``text`` (what a write or edit adds) hands the whole environment to a
    report, a log or an analytics call."""
    if not text or len(text) > _MAX_TEXT:
        return False
    if not any(
        word in text
        for word in (
            "env",
            "ENV",
            "Storage",
            "cookie",
            "AsEnumerable",
            "GetEnvironmentVariables",
            "GetConnectionString",
            "Environ",
            "AllSettings",
            "$_",
            "all()",
            "getenv",
            "expvar",
            "env::var",
        )
    ):
        return False
    return _REPORTED.search(text) is not None
