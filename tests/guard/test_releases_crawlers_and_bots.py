"""An app's release and update trust, a crawler's manners, a chat bot's commands and the
application's own code that wipes or sends: what each rule holds for, and the everyday
calls beside it that stay free."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import FREE, edit, stopped, tool_decided


def _found(path: str, old: str, new: str) -> tuple[str | None, str | None]:
    return stopped("Edit", edit(path, old, new))


@pytest.mark.parametrize(
    ("path", "old", "new", "found"),
    [("app.json", '"url": "https://u.expo.dev/5f1c",\n"codeSigningCertificate": "./certs/c.pem",',
      '"url": "https://u.expo.dev/5f1c",', ("deny", "updates-unverified")),
     ("ios/Acme/Info.plist", "<key>CodePushPublicKey</key>\n<string>MIIB</string>", "",
      ("deny", "updates-unverified")),
     ("ios/Acme/Info.plist", "<key>FirebaseCrashlyticsCollectionEnabled</key>\n<true/>",
      "<key>FirebaseCrashlyticsCollectionEnabled</key>\n<false/>",
      ("ask", "protection-switched-off")),
     ("ios/Acme/Session.swift", "Crashlytics.crashlytics().setUserID(user.id)",
      "Crashlytics.crashlytics().setUserID(user.email)", ("ask", "people-data-sent")),
     ("server/src/iap/verifyReceipt.ts", "const r = await api.getTransactionInfo(id);",
      "return { valid: true, productId: req.body.productId };", ("ask", "auth-weakened")),
     # everyday: the update URL kept, a user's opaque id given to the crash reporter
     ("app.json", '"runtimeVersion": "1.0.0",', '"runtimeVersion": "1.1.0",', FREE),
     ("ios/Acme/Session.swift", "Crashlytics.crashlytics().log(msg)",
      "Crashlytics.crashlytics().setUserID(user.id)", FREE)],
)  # fmt: skip
def test_release_and_update_trust(
    path: str, old: str, new: str, found: tuple[str | None, str | None]
) -> None:
    assert _found(path, old, new) == found


@pytest.mark.parametrize(
    "path", ["fastlane/Matchfile", "fastlane/Appfile", "fastlane/Pluginfile", "config/automod.yaml",
             "serverless.yml", "dags/crawl_listings.py"],
)  # fmt: skip
def test_files_a_release_tool_bot_or_scheduler_acts_on_are_no_grant(path: str) -> None:
    assert tool_decided("Edit", edit(path, "a = 1", "a = 2"))[0] is None


@pytest.mark.parametrize(
    ("path", "old", "new", "found"),
    [("crawler/settings.py", "ROBOTSTXT_OBEY = True", "ROBOTSTXT_OBEY = False",
      ("ask", "protection-switched-off")),
     ("crawler/settings.py", "DOWNLOADER_MIDDLEWARES = {\n}", "DOWNLOADER_MIDDLEWARES = {\n"
      '    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,\n}',
      ("ask", "protection-switched-off")),
     ("crawler/spiders/news.py", "headers = {}", 'headers = {"User-Agent": "Googlebot/2.1"}',
      ("ask", "protection-switched-off")),
     ("crawler/spiders/portal.py", 'Rule(LinkExtractor(deny=(r"/logout", r"/delete")), '
      "follow=True),", "Rule(LinkExtractor(), follow=True),", ("ask", "protection-switched-off")),
     ("scripts/broadcast.py", "SEND_INTERVAL_SECONDS = 1.0", "SEND_INTERVAL_SECONDS = 0",
      ("ask", "protection-switched-off")),
     ("crawler/items.py", "    court = scrapy.Field()", "    court = scrapy.Field()\n"
      "    defendant_dob = scrapy.Field()", ("ask", "people-data-sent")),
     ("crawler/pipelines.py", "    self.conn = connect(url)", "    self.conn = connect(url)\n"
      '    self.conn.execute("DELETE FROM listings")', ("ask", "data-wiped-by-code")),
     # everyday: a delay raised, a wipe in a migration, a keyed delete, a politer agent
     ("crawler/settings.py", "DOWNLOAD_DELAY = 0.5", "DOWNLOAD_DELAY = 2", FREE),
     ("migrations/0007_reset.py", "    pass", '    op.execute("TRUNCATE staging_rows")', FREE),
     ("crawler/pipelines.py", "    pass", '    self.conn.execute("DELETE FROM listings WHERE '
      'run_id = %s", (run,))', FREE),
     ("crawler/spiders/news.py", "headers = {}", 'headers = {"User-Agent": "acme-bot/1.0"}',
      FREE)],
)  # fmt: skip
def test_crawler_manners_and_code_that_wipes_or_collects(
    path: str, old: str, new: str, found: tuple[str | None, str | None]
) -> None:
    assert _found(path, old, new) == found


@pytest.mark.parametrize(
    ("path", "old", "new", "found"),
    [("app.py", "", '@app.command("/sh")\ndef run_shell(ack, respond, command):\n'
      '    out = subprocess.run(command["text"], shell=True)', ("ask", "input-run")),
     ("cogs/tools.py", "", "async def query(self, interaction, sql: str):\n"
      "    rows = await self.bot.db.fetch(sql)", ("ask", "input-run")),
     ("cogs/moderation.py", '@commands.has_permissions(ban_members=True)\nasync def ban(self):',
      "async def ban(self):", ("ask", "auth-weakened")),
     ("src/commands/purge.js", ".setDefaultMemberPermissions(PermissionFlagsBits.ManageMessages)",
      ".setDefaultMemberPermissions(null)", ("ask", "auth-weakened")),
     ("src/slack_verify.py", "if abs(time.time() - int(ts)) > 60 * 5:",
      "if abs(time.time() - int(ts)) > 10**9:", ("ask", "auth-weakened")),
     ("bot/main.py", 'log.info("starting")', 'log.info("token=%s", os.environ["DISCORD_TOKEN"])',
      ("ask", "secret-logged")),
     ("deploy/discord-bot.service", "User=bot", "User=root", ("ask", "protection-switched-off")),
     ("ci-templates/deploy.gitlab-ci.yml", "  environment: production\n  when: manual",
      "  environment: production\n  when: on_success", ("ask", "protection-switched-off")),
     # everyday: a window narrowed, a message logged, a check kept
     ("src/slack_verify.py", "if abs(time.time() - int(ts)) > 600:",
      "if abs(time.time() - int(ts)) > 300:", FREE),
     ("bot/main.py", 'log.info("starting")', 'log.info("starting shard %s", shard_id)', FREE)],
)  # fmt: skip
def test_chat_bot_commands_and_checks(
    path: str, old: str, new: str, found: tuple[str | None, str | None]
) -> None:
    given: dict[str, Any] = (
        {"file_path": f"/home/dev/project/{path}", "content": new}
        if not old
        else edit(path, old, new)
    )
    assert stopped("Write" if not old else "Edit", given) == found
