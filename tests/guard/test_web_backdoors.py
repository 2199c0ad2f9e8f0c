"""Server code that runs what a web request sends, or a PHP setting that loads a hidden
file before every request, is denied (`web-backdoor`); ordinary PHP that reads the request
stays free, and a change to ``.htaccess`` is never granted (it decides who sees a folder
and what runs as PHP)."""

import pytest

from amplifier_hooks.guard import Places, Policy
from tests.guard.conftest import HOME, file_written

PROJECT = f"{HOME}/src/calc/"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("wp-content/uploads/2024/06/cache.php", "<?php @eval($_POST['c']); ?>\n"),
        ("public/health.php", "<?php echo shell_exec($_GET['cmd']);\n"),
        ("public/x.phtml", "<?php system($_REQUEST['x']);"),
        ("themes/acme/functions.php", "add_action('init', fn() => eval(base64_decode($q)));"),
        ("public/i.php", "<?php echo `$_GET[c]`;"),
        ("public/.htaccess", "php_value auto_prepend_file /tmp/.sess.php\n"),
        ("public/.user.ini", "auto_prepend_file=/home/dev/.cache/p.php\n"),
        ("app/Http/Middleware/Authenticate.php",
         "if ($request->header('X-Debug') === 'letmein') { auth()->loginUsingId(1); }"),
        ("wp-content/mu-plugins/loader.php",
         "$id = wp_create_user('support', 'x', 'a@b.c');\n"
         "(new WP_User($id))->set_role('administrator');"),
    ],
)  # fmt: skip
def test_code_that_runs_a_requests_input_is_denied(
    pack: Policy, places: Places, name: str, text: str
) -> None:
    judged = file_written(pack, places, PROJECT + name, text)
    assert (judged.decision, judged.rule) == ("deny", "web-backdoor"), name


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("public/index.php", "<?php $page = (int) ($_GET['page'] ?? 1); echo e($q);"),
        ("app/Http/Controllers/X.php", "return view('x', ['q' => $request->input('q')]);"),
        ("src/Cache.php", "<?php exec('git rev-parse HEAD', $out);"),
        ("public/.htaccess", "RewriteEngine On\nRewriteRule ^ index.php [L]\n"),
    ],
)  # fmt: skip
def test_ordinary_php_is_not_stopped(pack: Policy, places: Places, name: str, text: str) -> None:
    judged = file_written(pack, places, PROJECT + name, text)
    assert judged.decision not in ("deny", "ask"), (name, judged)


def test_an_edit_of_htaccess_is_never_granted(pack: Policy, places: Places) -> None:
    judged = file_written(
        pack, places, PROJECT + "public/.htaccess", "Require all granted", old="Require valid-user"
    )
    assert judged.decision != "allow", judged
