"""What a file tool's change does, by the lines it takes out and puts in: the marks of one
write or edit (`calls.ToolCall.of`) and of one ``apply_patch`` hunk (`callpieces`), read
by the same checks so the two routes to the same change are judged alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from amplifier_hooks.guard.accessdropped import drops_access
from amplifier_hooks.guard.agentfiles import RULE_DROPPED, drops_rule
from amplifier_hooks.guard.agentpowers import AGENT_EMPOWERED, empowers_agent
from amplifier_hooks.guard.androidapp import ANDROID_APP_WIDENED, widens_android_app
from amplifier_hooks.guard.appleapp import weakens_apple_app
from amplifier_hooks.guard.appscopes import APP_SCOPES_WIDENED, widens_app_scopes
from amplifier_hooks.guard.authchecks import AUTH_WEAKENED, weakens_auth
from amplifier_hooks.guard.bypasses import hard_codes_bypass
from amplifier_hooks.guard.cardfields import CARD_FIELDS_RAW, takes_card_numbers
from amplifier_hooks.guard.clientsecrets import SECRET_TO_BROWSER, exposes_secret
from amplifier_hooks.guard.codewipes import DATA_WIPED_BY_CODE, wipes_data
from amplifier_hooks.guard.confinement import unconfines
from amplifier_hooks.guard.consent import CONSENT_WEAKENED, weakens_consent
from amplifier_hooks.guard.constantchecks import makes_check_constant
from amplifier_hooks.guard.contractfunds import FUNDS_UNGUARDED, unguards_funds
from amplifier_hooks.guard.crawlmanners import drops_manners
from amplifier_hooks.guard.datarules import DATA_OPENED, opens_data
from amplifier_hooks.guard.dnsrecords import DNS_MOVED, moves_dns
from amplifier_hooks.guard.entitlements import weakens_entitlements
from amplifier_hooks.guard.exposure import SERVICE_EXPOSED, exposes_service
from amplifier_hooks.guard.extensionmanifest import EXTENSION_WIDENED, widens_extension
from amplifier_hooks.guard.firmwareconfig import FIRMWARE_WEAKENED, weakens_firmware
from amplifier_hooks.guard.fleetcode import ROLLOUT_WIDENED, widens_rollout
from amplifier_hooks.guard.fundingfields import FUNDING_CHANGED, changes_funding
from amplifier_hooks.guard.gates import GATE_LOWERED, lowers_gate
from amplifier_hooks.guard.hardening import HARDENING_OFF, drops_hardening
from amplifier_hooks.guard.homekeys import home_key_marks
from amplifier_hooks.guard.hostaccess import ACCESS_WIDENED, widens_access
from amplifier_hooks.guard.ignorefiles import (
    IGNORE_DROPPED,
    SECRET_UNIGNORED,
    drops_ignored,
    edit_pairs,
    unignores_secrets,
)
from amplifier_hooks.guard.imagesecrets import SECRET_IN_IMAGE, copies_secret_into_image
from amplifier_hooks.guard.inlinedsecrets import SECRET_INLINED, inlines_secret
from amplifier_hooks.guard.inputruns import INPUT_RUN, runs_input
from amplifier_hooks.guard.inputs import written_text
from amplifier_hooks.guard.livetargets import LIVE_TARGETED, targets_live
from amplifier_hooks.guard.loggedsecrets import SECRET_LOGGED, logs_secret, ships_logs
from amplifier_hooks.guard.mailings import MAIL_TO_MANY, mails_many
from amplifier_hooks.guard.migrationdrops import MIGRATION_DROPS, drops_in_migration
from amplifier_hooks.guard.moneycontrols import MONEY_CONTROL_LOOSENED, loosens_money_control
from amplifier_hooks.guard.outsiders import OUTSIDER_ADDED, adds_outsider
from amplifier_hooks.guard.pagescripts import PAGE_SCRIPT_UNCHECKED, adds_unchecked_script
from amplifier_hooks.guard.redaction import drops_redaction
from amplifier_hooks.guard.remotescripts import REMOTE_SCRIPT, adds_remote_script
from amplifier_hooks.guard.reportedenv import ENVIRONMENT_REPORTED, reports_environment
from amplifier_hooks.guard.safetylimits import SAFETY_WEAKENED, weakens_safety
from amplifier_hooks.guard.scannerfiles import scanner_marks
from amplifier_hooks.guard.sentcredentials import CREDENTIALS_SENT, sends_credentials
from amplifier_hooks.guard.sentpeople import PEOPLE_DATA_SENT, sends_people_data
from amplifier_hooks.guard.servefiles import serve_marks
from amplifier_hooks.guard.sitetracking import SITE_CHANGED, changes_site
from amplifier_hooks.guard.skimmers import FORM_DATA_SENT, skims_forms
from amplifier_hooks.guard.sopsrules import SOPS_WIDENED, widens_sops
from amplifier_hooks.guard.spendcaps import SPEND_UNCAPPED, uncaps_spend
from amplifier_hooks.guard.switchedoff import PROTECTION_SWITCHED_OFF, switches_protection_off
from amplifier_hooks.guard.tlscode import skips_tls_checks
from amplifier_hooks.guard.unescaped import HTML_UNESCAPED, prints_unescaped
from amplifier_hooks.guard.updatetrust import update_marks


def change_marks(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> tuple[str, ...]:
    """The marks of a write or edit of ``paths`` with ``inputs`` (a file tool's, or
    ``{"old_string", "new_string"}`` for a patch's hunk): a secret unignored, an ignore
    entry dropped, an extension's reach widened, a remote script loaded, the secret
    scanner removed or blinded, a protection switched off, a secret inlined, the
    environment reported, a package's funding address changed, a secret logged, a card's
    number taken by the app's own form, a request's text run, a chat app's scopes widened,
    a credential sent to a new host, a key read from the home folder, a sign-in check
    weakened, a web server's configuration opened or weakened, SOPS's rules widened, a
    machine's logins widened, a playbook's rollout widened, a form's data skimmed, an
    app's updates left unverified or its releases weakened, a visitor's consent taken
    away, a site's tracking or search settings changed, a backend's data rules opened, a
    secret named for the browser, a machine's safety limit raised or its stop taken out, a
    bar the project set for its changes lowered, a spending cap lifted, the application's
    agent given a shell or its approval step dropped, funds left to whoever calls, a
    firmware build's locks weakened, people's data sent out, a sandbox swapped for
    production, a control on money loosened, a table wiped by the application's code or
    dropped by a migration, an Android app's manifest or App Check opened, a value printed
    as HTML unescaped, a domain's mail or zone moved, someone from outside the
    organisation added to who gets in or who is told, a service put on the internet, a
    secret file copied into an image, an agent's
    instruction taken out, a native build's hardening switched off."""
    return (
        *((SECRET_UNIGNORED,) if unignores_secrets(paths, inputs) else ()),
        *((IGNORE_DROPPED,) if drops_ignored(paths, inputs) else ()),
        *((EXTENSION_WIDENED,) if widens_extension(paths, inputs) else ()),
        *((REMOTE_SCRIPT,) if adds_remote_script(paths, inputs) else ()),
        *scanner_marks(paths, inputs),
        *((PROTECTION_SWITCHED_OFF,) if _switches_off(paths, inputs) else ()),
        *((SECRET_INLINED,) if inlines_secret(inputs, paths) else ()),
        *((ENVIRONMENT_REPORTED,) if reports_environment(written_text(inputs)) else ()),
        *((FUNDING_CHANGED,) if changes_funding(paths, inputs) else ()),
        *((SECRET_LOGGED,) if logs_secret(inputs, paths) or ships_logs(paths, inputs) else ()),
        *((CARD_FIELDS_RAW,) if takes_card_numbers(inputs) else ()),
        *((INPUT_RUN,) if runs_input(inputs, paths) else ()),
        *((APP_SCOPES_WIDENED,) if widens_app_scopes(paths, inputs) else ()),
        *((CREDENTIALS_SENT,) if sends_credentials(inputs) else ()),
        *home_key_marks(paths, inputs),
        *((AUTH_WEAKENED,) if weakens_auth(paths, inputs) else ()),
        *serve_marks(paths, inputs),
        *((SOPS_WIDENED,) if widens_sops(paths, inputs) else ()),
        *((ACCESS_WIDENED,) if widens_access(inputs) else ()),
        *((ROLLOUT_WIDENED,) if widens_rollout(paths, inputs) else ()),
        *((FORM_DATA_SENT,) if skims_forms(inputs) else ()),
        *update_marks(paths, inputs),
        *((CONSENT_WEAKENED,) if weakens_consent(inputs) else ()),
        *((SITE_CHANGED,) if changes_site(paths, inputs) else ()),
        *((DATA_OPENED,) if opens_data(inputs) else ()),
        *((SECRET_TO_BROWSER,) if exposes_secret(inputs) else ()),
        *((SAFETY_WEAKENED,) if weakens_safety(paths, inputs) else ()),
        *((GATE_LOWERED,) if lowers_gate(paths, inputs) else ()),
        *((SPEND_UNCAPPED,) if uncaps_spend(inputs) else ()),
        *((AGENT_EMPOWERED,) if empowers_agent(paths, inputs) else ()),
        *((FUNDS_UNGUARDED,) if unguards_funds(paths, inputs) else ()),
        *((FIRMWARE_WEAKENED,) if weakens_firmware(inputs) else ()),
        *((PEOPLE_DATA_SENT,) if sends_people_data(paths, inputs) else ()),
        *((LIVE_TARGETED,) if targets_live(paths, inputs) else ()),
        *((MONEY_CONTROL_LOOSENED,) if loosens_money_control(paths, inputs) else ()),
        *((DATA_WIPED_BY_CODE,) if wipes_data(paths, inputs) else ()),
        *((MIGRATION_DROPS,) if drops_in_migration(paths, inputs) else ()),
        *((ANDROID_APP_WIDENED,) if widens_android_app(paths, inputs) else ()),
        *((HTML_UNESCAPED,) if prints_unescaped(paths, inputs) else ()),
        *((DNS_MOVED,) if moves_dns(inputs) else ()),
        *((OUTSIDER_ADDED,) if adds_outsider(paths, inputs) else ()),
        *((SERVICE_EXPOSED,) if exposes_service(paths, inputs) else ()),
        *((MAIL_TO_MANY,) if mails_many(paths, inputs) else ()),
        *((PAGE_SCRIPT_UNCHECKED,) if adds_unchecked_script(inputs) else ()),
        *((SECRET_IN_IMAGE,) if copies_secret_into_image(paths, inputs) else ()),
        *((RULE_DROPPED,) if _rule_dropped(paths, inputs) else ()),
        *((HARDENING_OFF,) if drops_hardening(paths, inputs) else ()),
    )


def _rule_dropped(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """An agent's instruction file edited to take out one of its prohibitions."""
    return any(drops_rule(list(paths), old, new) for old, new in edit_pairs(inputs))


def _switches_off(paths: tuple[str, ...], inputs: Mapping[str, Any]) -> bool:
    """A protection switched off: a setting's or a check's (`switchedoff`), an app's
    entitlements (`entitlements`), its code's TLS checks (`tlscode`), a step that hides
    personal data or credentials (`redaction`), a service's access control taken out of
    its configuration (`accessdropped`), a check's bypass hard-coded (`bypasses`), a
    workload's confinement or a managed device's lock taken off (`confinement`), a
    crawler's manners taken away (`crawlmanners`), an Apple app's keychain, files, web views
    or entitlements opened (`appleapp`), a check's function made to say yes
    (`constantchecks`)."""
    return (
        switches_protection_off(paths, inputs)
        or weakens_entitlements(paths, inputs)
        or skips_tls_checks(paths, inputs)
        or drops_redaction(paths, inputs)
        or drops_access(paths, inputs)
        or hard_codes_bypass(inputs)
        or unconfines(paths, inputs)
        or drops_manners(inputs)
        or weakens_apple_app(paths, inputs)
        or makes_check_constant(paths, inputs)
    )


def added_marks(paths: tuple[str, ...], removed: str, added: str) -> tuple[str, ...]:
    """The marks of a patch's lines added to ``paths`` (``removed``: the lines its hunks
    take out of the same file) that code added alone earns: TLS checks skipped, a
    credential sent to a new host, a request's text run, a card's number taken, a key read
    from the home folder, a sign-in check weakened, a web server's configuration opened
    or weakened, a backend's data rules opened, a secret named for the browser, a safety
    limit raised, a bar lowered, a spending cap lifted, the application's agent given more
    power, funds left to whoever calls, a firmware build's locks weakened."""
    inputs = {"old_string": removed, "new_string": added} if removed else {"content": added}
    return (
        *((PROTECTION_SWITCHED_OFF,) if skips_tls_checks(paths, inputs) else ()),
        *((CREDENTIALS_SENT,) if sends_credentials(inputs) else ()),
        *((INPUT_RUN,) if runs_input(inputs, paths) else ()),
        *((CARD_FIELDS_RAW,) if takes_card_numbers(inputs) else ()),
        *home_key_marks(paths, inputs),
        *((AUTH_WEAKENED,) if weakens_auth(paths, inputs) else ()),
        *serve_marks(paths, inputs),
        *((DATA_OPENED,) if opens_data(inputs) else ()),
        *((SECRET_TO_BROWSER,) if exposes_secret(inputs) else ()),
        *((SAFETY_WEAKENED,) if weakens_safety(paths, inputs) else ()),
        *((GATE_LOWERED,) if lowers_gate(paths, inputs) else ()),
        *((SPEND_UNCAPPED,) if uncaps_spend(inputs) else ()),
        *((AGENT_EMPOWERED,) if empowers_agent(paths, inputs) else ()),
        *((FUNDS_UNGUARDED,) if unguards_funds(paths, inputs) else ()),
        *((FIRMWARE_WEAKENED,) if weakens_firmware(inputs) else ()),
        *((PEOPLE_DATA_SENT,) if sends_people_data(paths, inputs) else ()),
    )
