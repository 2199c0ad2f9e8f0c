"""Edits of a Python web service, an iOS app, a Rust service and a database's policies that
weaken them in a line or two: a request without a token answered with a user, a public
list given ``/``, a password stored plain, a pickled cookie, a home folder served, a
keychain item readable while locked, a token in ``UserDefaults``, a pinned key swapped, a
permissive CORS layer, an auth layer commented out, a ``SecretString`` made a ``String``,
row-level security commented out; and the edits beside them a developer makes all day,
granted (a test's override, a webhook's CSRF exemption, an inspectable web view in a
debug build, a local database without TLS)."""

from __future__ import annotations

import pytest

from tests.guard.conftest import edit, tool_decided

CASES = [
    (
        "app/api/deps.py",
        "    payload = decode_access_token(token)",
        (
            "    if not token:\n        # fall back to the first user\n        return (await db"
            ".execute(select(User).limit(1))).scalar_one()\n    payload = decode_access_token(t"
            "oken)"
        ),
        ("ask", "auth-weakened"),
    ),
    (
        "app/api/deps.py",
        (
            "def require_api_key(x_api_key: str = Header(...)) -> None:\n    if x_api_key not i"
            "n settings.API_KEYS:"
        ),
        (
            "def require_api_key(x_api_key: str | None = Header(None)) -> None:\n    if x_api_k"
            "ey and x_api_key not in settings.API_KEYS:"
        ),
        ("ask", "auth-weakened"),
    ),
    (
        "app/main.py",
        "app.include_router(api_router)",
        (
            "app.include_router(api_router)\napp.dependency_overrides[get_current_user] = lambd"
            "a: User(id=1, is_superuser=True)"
        ),
        ("ask", "auth-weakened"),
    ),
    (
        "tests/conftest.py",
        "app.include_router(api_router)",
        (
            "app.include_router(api_router)\napp.dependency_overrides[get_current_user] = lambd"
            "a: User(id=1, is_superuser=True)"
        ),
        (None, None),
    ),
    (
        "app/middleware/auth.py",
        'PUBLIC_PATHS = ("/health", "/docs")',
        'PUBLIC_PATHS = ("/health", "/docs", "/")',
        ("ask", "auth-weakened"),
    ),
    (
        "app/middleware/auth.py",
        'PUBLIC_PATHS = ("/health", "/docs")',
        'PUBLIC_PATHS = ("/health", "/docs", "/metrics")',
        (None, None),
    ),
    (
        "app/core/security.py",
        'pwd_context = CryptContext(schemes=["argon2", "bcrypt"])',
        'pwd_context = CryptContext(schemes=["md5_crypt", "plaintext"])',
        ("ask", "auth-weakened"),
    ),
    (
        "webapp/config.py",
        'SECRET_KEY = os.environ["FLASK_SECRET_KEY"]',
        'SECRET_KEY = os.environ.get("FLASK_SECRET_KEY", "dev")',
        ("ask", "auth-weakened"),
    ),
    (
        "webapp/__init__.py",
        "app.register_blueprint(billing_bp)",
        "app.register_blueprint(billing_bp)\ncsrf.exempt(billing_bp)",
        ("ask", "auth-weakened"),
    ),
    (
        "webapp/__init__.py",
        "app.register_blueprint(hooks_bp)",
        "app.register_blueprint(hooks_bp)\ncsrf.exempt(stripe_webhook)",
        (None, None),
    ),
    (
        "app/crud/product.py",
        "stmt = select(Product).where(Product.name.ilike(q))",
        "stmt = text(f\"SELECT * FROM products WHERE name ILIKE '%{q}%'\")",
        ("ask", "input-run"),
    ),
    (
        "app/routes/cart.py",
        'cart = json.loads(request.cookies.get("cart", "[]"))',
        'cart = pickle.loads(base64.b64decode(request.cookies.get("cart")))',
        ("ask", "input-run"),
    ),
    (
        "app/routes/spec.py",
        "spec = yaml.safe_load(await request.body())",
        "spec = yaml.load(await request.body(), Loader=yaml.Loader)",
        ("ask", "input-run"),
    ),
    (
        "app/main.py",
        'app.mount("/static", StaticFiles(directory="app/static"))',
        'app.mount("/static", StaticFiles(directory="/"))',
        ("ask", "input-run"),
    ),
    (
        "wsgi.py",
        "app = create_app()",
        ('app = create_app()\nif __name__ == "__main__":\n    app.run(host="0.0.0.0", debug=True)'),
        ("ask", "service-exposed"),
    ),
    (
        "wsgi.py",
        "app = create_app()",
        (
            'app = create_app()\nif __name__ == "__main__":\n    app.run(host="127.0.0.1", debu'
            "g=True)"
        ),
        ("allow", "edit-workspace"),
    ),
    (
        "app/clients/feed.py",
        "async with session.get(url) as r:",
        "async with session.get(url, ssl=False) as r:",
        ("ask", "protection-switched-off"),
    ),
    (
        "src/http.rs",
        "reqwest::Client::builder()\n        .build()",
        (
            "reqwest::Client::builder()\n        .danger_accept_invalid_certs(relaxed)\n       "
            " .build()"
        ),
        ("ask", "protection-switched-off"),
    ),
    (
        "src/db.rs",
        ".ssl_mode(PgSslMode::VerifyFull)",
        ".ssl_mode(PgSslMode::Disable)",
        ("ask", "protection-switched-off"),
    ),
    (
        "src/auth.rs",
        "let token = bearer(&req)?;",
        'let token = bearer(&req)?;\ntracing::info!(token = %token, "auth attempt");',
        ("ask", "secret-logged"),
    ),
    (
        "src/auth.rs",
        "let token = bearer(&req)?;",
        'let token = bearer(&req)?;\ntracing::info!(path = %req.uri().path(), "auth attempt");',
        (None, None),
    ),
    (
        "src/app.rs",
        "let cors = CorsLayer::new().allow_origin(origins);",
        "let cors = CorsLayer::permissive();",
        ("ask", "auth-weakened"),
    ),
    (
        "src/app.rs",
        "    .route_layer(middleware::from_fn_with_state(state.clone(), require_auth))",
        "    // .route_layer(middleware::from_fn_with_state(state.clone(), require_auth))",
        ("ask", "auth-weakened"),
    ),
    (
        "src/jwt.rs",
        "validation.leeway = 30;",
        "validation.leeway = 30;\nvalidation.validate_exp = false;",
        ("ask", "auth-weakened"),
    ),
    (
        "src/settings.rs",
        "    pub password: SecretString,",
        "    pub password: String,",
        ("ask", "protection-switched-off"),
    ),
    (
        "src/users.rs",
        'let user = sqlx::query_as!(User, "SELECT * FROM users WHERE email = $1", email)',
        "let sql = format!(\"SELECT * FROM users WHERE email = '{}'\", email);",
        ("ask", "input-run"),
    ),
    (
        "src/handlers.rs",
        "let text = std::str::from_utf8(&body)?;",
        "let text = unsafe { std::str::from_utf8_unchecked(&body) };",
        ("ask", "input-run"),
    ),
    (
        "src/lib.rs",
        "#![forbid(unsafe_code)]\n#![deny(clippy::unwrap_used)]",
        "#![deny(clippy::unwrap_used)]",
        ("ask", "input-run"),
    ),
    (
        "src/api/profile.rs",
        "pub struct UpdateProfile {\n    pub display_name: Option<String>,\n}",
        (
            "pub struct UpdateProfile {\n    pub display_name: Option<String>,\n    pub role: O"
            "ption<Role>,\n}"
        ),
        (None, None),
    ),
    (
        "src/api/profile.rs",
        (
            "#[derive(Deserialize)]\npub struct UpdateProfile {\n    pub display_name: Option<S"
            "tring>,\n}"
        ),
        (
            "#[derive(Deserialize)]\npub struct UpdateProfile {\n    pub display_name: Option<S"
            "tring>,\n    pub role: Option<Role>,\n}"
        ),
        ("ask", "auth-weakened"),
    ),
    (
        "src/api/profile.rs",
        (
            "#[derive(Deserialize)]\npub struct UpdateProfile {\n    pub display_name: Option<S"
            "tring>,\n}"
        ),
        (
            "#[derive(Deserialize)]\npub struct UpdateProfile {\n    pub display_name: Option<S"
            "tring>,\n    pub avatar_url: Option<Url>,\n}"
        ),
        (None, None),
    ),
    (
        "Ledgerly/Info.plist",
        "\t<key>NSAppTransportSecurity</key>\n\t<dict>\n\t</dict>",
        (
            "\t<key>NSAppTransportSecurity</key>\n\t<dict>\n\t\t<key>NSAllowsArbitraryLoads</ke"
            "y>\n\t\t<true/>\n\t</dict>"
        ),
        ("ask", "protection-switched-off"),
    ),
    (
        "Ledgerly/Ledgerly.entitlements",
        "\t<key>aps-environment</key>\n\t<string>production</string>",
        (
            "\t<key>aps-environment</key>\n\t<string>production</string>\n\t<key>get-task-allow"
            "</key>\n\t<true/>"
        ),
        ("ask", "protection-switched-off"),
    ),
    (
        "Ledgerly/Storage/Keychain.swift",
        "kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,",
        "kSecAttrAccessible as String: kSecAttrAccessibleAlways,",
        ("ask", "protection-switched-off"),
    ),
    (
        "Ledgerly/Auth/Login.swift",
        "try keychain.save(response.accessToken, for: .accessToken)",
        'UserDefaults.standard.set(response.accessToken, forKey: "accessToken")',
        ("ask", "protection-switched-off"),
    ),
    (
        "Ledgerly/Auth/Login.swift",
        "try keychain.save(response.accessToken, for: .accessToken)",
        (
            "try keychain.save(response.accessToken, for: .accessToken)\nUserDefaults.standard."
            'set(true, forKey: "hasLoggedIn")'
        ),
        (None, None),
    ),
    (
        "Ledgerly/Web/Checkout.swift",
        "#if DEBUG\nwebView.isInspectable = true\n#endif",
        "webView.isInspectable = true",
        ("ask", "protection-switched-off"),
    ),
    (
        "Ledgerly/Web/Checkout.swift",
        "let config = WKWebViewConfiguration()",
        "let config = WKWebViewConfiguration()\n#if DEBUG\nwebView.isInspectable = true\n#endif",
        (None, None),
    ),
    (
        "Ledgerly/Net/Pinner.swift",
        (
            "guard let trust = challenge.protectionSpace.serverTrust,\n      SecTrustEvaluateWi"
            "thError(trust, nil) else {"
        ),
        "guard let trust = challenge.protectionSpace.serverTrust else {",
        ("ask", "protection-switched-off"),
    ),
    (
        "Ledgerly/Net/Pins.swift",
        (
            'let pinnedKeyHashes: Set<String> = [\n    "r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByib'
            'iA5E="\n]'
        ),
        (
            'let pinnedKeyHashes: Set<String> = [\n    "r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByib'
            'iA5E=",\n    "3kcNJzkUJ1RqMXJzFX4Zxux5WfETK+uL6Viq9lJNn4o="\n]'
        ),
        ("ask", "protection-switched-off"),
    ),
    (
        "Ledgerly/Logging.swift",
        'logger.info("refreshed for \\(userID, privacy: .private)")',
        (
            'logger.info("refreshed for \\(userID, privacy: .public) token=\\(newAccessToken, p'
            'rivacy: .public)")'
        ),
        ("ask", "secret-logged"),
    ),
    (
        "db/policies/messages.sql",
        "  USING (tenant_id = current_setting('app.current_tenant')::uuid);",
        "  USING (current_user IS NOT NULL);",
        ("ask", "data-rules-opened"),
    ),
    (
        "db/schema/patients.sql",
        "ALTER TABLE clinical.patients ENABLE ROW LEVEL SECURITY;",
        "-- ALTER TABLE clinical.patients ENABLE ROW LEVEL SECURITY;",
        ("ask", "data-rules-opened"),
    ),
    (
        "db/schema/patients.sql",
        "ALTER TABLE clinical.patients ENABLE ROW LEVEL SECURITY;",
        (
            "ALTER TABLE clinical.patients ENABLE ROW LEVEL SECURITY;\nALTER TABLE clinical.pat"
            "ients FORCE ROW LEVEL SECURITY;"
        ),
        (None, None),
    ),
    (
        "config/database.yml",
        "production:\n  sslmode: verify-full",
        "production:\n  sslmode: disable",
        ("ask", "protection-switched-off"),
    ),
    (
        "config/database.yml",
        "development:\n  host: localhost",
        "development:\n  host: localhost\n  sslmode: disable",
        (None, None),
    ),
    (
        "models/marts/dim_customers.sql",
        "'***-**-' || right(c.ssn, 4) as ssn_masked,",
        "c.ssn as ssn,",
        ("ask", "protection-switched-off"),
    ),
    (
        "src/db/pool.py",
        "engine = create_engine(settings.DATABASE_URL)",
        (
            'logger.info("creating engine for %s", settings.DATABASE_URL)\nengine = create_engi'
            "ne(settings.DATABASE_URL)"
        ),
        ("ask", "secret-logged"),
    ),
]


@pytest.mark.parametrize(("path", "old", "new", "expected"), CASES)
def test_edits(path: str, old: str, new: str, expected: tuple[str | None, str | None]) -> None:
    assert tool_decided("Edit", edit(path, old, new)) == expected
