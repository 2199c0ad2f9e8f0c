"""What PHP runs besides its script (`phpruns`): Laravel tinker's ``--execute`` code is
inline code as ``php -r`` is, a Composer ``vendor/bin`` tool run by ``php`` is judged as
that tool, and ``key:generate --force`` (APP_KEY replaced) is asked; the everyday Laravel
calls beside them stay free."""

from __future__ import annotations

from tests.guard.conftest import Judge
from tests.guard.tables import stopped_and_free

ASKED = [
    ('php artisan tinker --execute="App\\Models\\User::query()->delete();"', "inline-code"),
    ("php artisan tinker --execute='App\\Models\\User::query()->delete();'", "inline-code"),
    ("php artisan tinker --execute 'App\\Models\\User::query()->delete();'", "inline-code"),
    ("./artisan tinker --execute='file_put_contents(\"x\", 1);'", "inline-code"),
    # a look's shape, but a call in its arguments, a write at its end, a variable
    (
        "php artisan tinker --execute=\"dump(App\\Models\\Order::where('s', exec(1))->count());\"",
        "inline-code",
    ),
    (
        "php artisan tinker --execute=\"App\\Models\\Order::where('s', 'x')->update(['a' => 1]);\"",
        "inline-code",
    ),
    (
        "php artisan tinker --execute=\"echo App\\Models\\User::where('id', $ID)->first();\"",
        "inline-code",
    ),
    ("php vendor/bin/envoy run deploy --on=production", "php-host-deploy"),
    ("php ./vendor/bin/dep deploy production", "php-host-deploy"),
    ("php artisan key:generate --force", "app-key-regenerate"),
    ("./artisan key:generate --force", "app-key-regenerate"),
]

FREE = [
    "php artisan tinker --execute='echo 1;'",  # read whole: as `php -r 'echo 1;'`
    # a printed look at a model's data: builder methods of literal arguments, then a read
    "php artisan tinker --execute=\"dump(App\\Models\\Order::where('status', 'new')->count());\"",
    "php artisan tinker --execute='App\\Models\\User::latest()->first()'",
    "php artisan key:generate",  # a fresh project's setup (production prompts)
    "php artisan key:generate --show",  # prints a key, writes nothing
    "php artisan migrate",
    "php vendor/bin/phpunit",
    "php vendor/bin/envoy tasks",
]


test_asked, test_free = stopped_and_free([(c, "ask", rule) for c, rule in ASKED], FREE)


def test_tinker_code_is_judged_as_php_r(verdict: Judge) -> None:
    for code in ("App\\Models\\User::query()->delete();", "echo 1;", "unlink('.env');"):
        tinker = verdict(f"php artisan tinker --execute='{code}'")
        inline = verdict(f"php -r '{code}'")
        assert (tinker.decision, tinker.rule) == (inline.decision, inline.rule)
        assert tinker.decision != "allow"  # (the app boots first: never granted)
