"""A platform's own deploy tools (AWS SAM, SST, the Azure Developer CLI, Skaffold, Nomad,
Flux) change what runs outside the machine: asked, as ``terraform apply`` is. What they
build, render or plan locally stays free."""

import pytest

from tests.guard.conftest import Judge


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("sam deploy --guided", "infrastructure-change-tools"),
        ("sam delete --stack-name api --no-prompts", "infrastructure-change-tools"),
        ("sst deploy --stage prod", "infrastructure-change-tools"),
        ("npx sst remove --stage production", "infrastructure-change-runner"),
        ("azd down --force --purge", "infrastructure-change-tools"),
        ("skaffold run -p prod", "infrastructure-change-tools"),
        ("nomad job stop -purge web", "infrastructure-change-tools"),
        ("flux delete kustomization apps", "infrastructure-change-tools"),
    ],
)
def test_a_deploy_or_delete_is_asked(verdict: Judge, command: str, rule: str) -> None:
    judged = verdict(command)
    assert (judged.decision, judged.rule) == ("ask", rule), command


@pytest.mark.parametrize(
    "command",
    ["sam build", "sam local invoke Fn", "skaffold render", "nomad job plan web.nomad",
     "flux get kustomizations", "sst diff", "azd env list", "npx sst dev"],
)  # fmt: skip
def test_building_and_planning_stay_free(verdict: Judge, command: str) -> None:
    assert verdict(command).decision not in ("deny", "ask"), command
