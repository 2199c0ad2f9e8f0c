"""The wholesale, unconfirmed destroys outside this machine are denied
(``cloud-wipe-unconfirmed``): a stack destroyed with auto-approve, a project or resource
group deleted with its question answered, a bucket removed with its objects, a database
without a final snapshot, a namespace, every resource of a kind, a package entirely.
A single resource, an apply or deploy, and the same destroys while the tool still asks
its own question stay asked; plans, listings and dry runs stay as they were.
"""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.wipes import wipes

from .conftest import Judge

RULE = "cloud-wipe-unconfirmed"

DENIED = [
    # stacks and workspaces, with the plan's question skipped
    "terraform destroy -auto-approve",
    "terraform -chdir=infra/prod destroy -auto-approve",
    "terraform apply -destroy -auto-approve",
    "terraform destroy --auto-approve=true",
    "Terraform destroy -auto-approve",
    "TF_CLI_ARGS_destroy=-auto-approve terraform destroy",
    "TF_WORKSPACE=production tofu destroy --auto-approve -var env=prod",
    "cd live/prod && terragrunt run-all destroy --terragrunt-non-interactive",
    "pulumi destroy --yes --stack prod",
    "pulumi down -y -s acme/prod",
    "PULUMI_SKIP_CONFIRMATIONS=true pulumi destroy -s prod",
    "pulumi stack rm acme/prod --force --yes",
    "npx cdk destroy --all --force",
    "npx aws-cdk@2 destroy -f",
    "serverless remove --stage prod",
    "sls remove -s prod -r eu-west-1",
    "bash -c 'cd infra && terraform destroy -auto-approve'",
    "echo yes | terraform destroy",  # terraform takes its answer from the pipe
    "printf 'yes\\n' | tofu destroy -var-file=prod.tfvars",
    # accounts, projects, resource groups, clusters
    "gcloud projects delete acme-prod --quiet",
    "CLOUDSDK_CORE_DISABLE_PROMPTS=1 gcloud projects delete acme-prod",
    "gcloud beta container clusters delete prod -q --region=europe-west1",
    "az group delete --name prod-rg --yes --no-wait",
    "az aks delete -g rg -n prod -y",
    "aws cloudformation delete-stack --stack-name prod-network",
    "aws eks delete-cluster --name prod",
    "eksctl delete cluster --name prod",
    "doctl kubernetes cluster delete prod --force",
    # stores of data
    "aws s3 rb s3://acme-prod-logs --force",
    "aws --profile prod s3 rm s3://acme-prod-backups --recursive",
    "aws s3 rm s3://acme-prod-backups/ --recursive",
    "aws rds delete-db-instance --db-instance-identifier prod-db --skip-final-snapshot",
    "aws rds delete-db-cluster --db-cluster-identifier prod --skip-final-snapshot",
    "aws dynamodb delete-table --table-name orders-prod",
    "gcloud sql instances delete prod-pg --project=acme-prod --quiet",
    "gcloud storage rm --recursive gs://acme-prod-data",
    "gcloud storage rm gs://acme-prod-data/**",
    "gsutil -m rm -r gs://acme-ml-datasets",
    "az storage blob delete-batch --account-name acme --source datasets",
    "doctl databases delete 9cc10173 --force",
    "rclone purge onedrive:Documents",
    "rclone sync ./dist gdrive:",
    "s5cmd rm 's3://acme-ml-data/*'",
    # a sync from a folder the same command made empty deletes everything there
    "mkdir -p /tmp/empty && aws s3 sync /tmp/empty s3://acme-www --delete",
    "mkdir -p /tmp/e/ && AWS_PROFILE=prod aws s3 sync /tmp/e/ s3://acme-www/site --delete",
    "mkdir empty && gsutil -m rsync -rd empty gs://acme-ml/datasets",
    "mkdir -p /tmp/none && rclone sync /tmp/none gdrive:ML/datasets",
    "mkdir -p e && azcopy sync e 'https://a.blob.core.windows.net/c' --delete-destination=true",
    # clusters' namespaces and every resource of a kind
    "kubectl delete namespace production",
    "kubectl delete ns/production",
    "kubectl delete Namespace production --wait=false",
    "kubectl delete pods --all --all-namespaces",
    "kubectl -n production delete pvc --all",
    "kubectl --context prod delete deploy,svc,pvc --all -n api",
    "oc delete project shop",
    "argocd app delete shop-production --cascade --yes",
    # hosted apps, packages
    "flyctl apps destroy acme-api --yes",
    "heroku apps:destroy acme-prod --confirm acme-prod",
    "netlify sites:delete 3f2c --force",
    "supabase storage rm -r ss:///avatars --linked --yes",
    "npm unpublish @acme/ui --force",
    "npm unpublish left-pad -f",
    "npm --force unpublish 'left-pad@*'",
    # a volume (claim): its disk goes with it
    "kubectl delete pvc training-data -n ml",
    "kubectl delete pods,pvc -l app=notebook -n ml",
    "kubectl -n ml delete persistentvolumeclaim/training-data",
    "kubectl delete pv pvc-0a1b2c",
    # a release with its tag, a hub's repository, with the question answered
    "gh release delete v2.4.0 --cleanup-tag --yes",
    "gh release delete v1.3.0 -y --cleanup-tag -R acme/widget",
    "glab release delete v2.4.0 --with-tag --yes",
    "glab release delete v2.4.0 -t -y",
    "huggingface-cli repo delete dev/sentiment-bert --yes",
    "hf repo delete acme/churn-data --repo-type dataset -y",
    # a platform's database, or every Firestore collection, with the question answered
    "render postgres delete acme-prod-db --confirm",
    "render redis delete sessions --confirm",
    "firebase firestore:delete --all-collections --force",
    "firebase firestore:delete --all-collections -P prod -f",
    "npx firebase-tools firestore:delete --all-collections --force",
    "firebase firestore:databases:delete analytics --force",
]

ASKED = [
    "terraform destroy",
    "yes | terraform destroy",  # `y` is no answer: only `yes` approves
    "echo no | terraform destroy",
    "printf 'y\\n' | az group delete -n rg",  # az wants a terminal for its question
    "terraform destroy -auto-approve=false",
    "terraform destroy -target=aws_instance.bastion -auto-approve",
    "terraform apply -auto-approve",
    "terragrunt run-all destroy",
    "pulumi destroy --stack prod",
    "pulumi destroy --yes --target urn:pulumi:prod::app::aws:s3/bucket:Bucket::logs",
    "pulumi stack rm acme/dev --yes",
    "npx cdk destroy --all",
    "aws s3 rb s3://acme-empty",
    "aws s3 rm s3://acme-build/app-1.2.3.zip",
    "aws s3 rm s3://acme-build/tmp/ --recursive",
    "aws rds delete-db-instance --db-instance-identifier staging-db"
    " --final-db-snapshot-identifier staging-db-final",
    "aws ec2 terminate-instances --instance-ids i-0abc123",
    "gcloud projects delete acme-prod",
    "gcloud compute instances delete web-1 --zone us-central1-a -q",
    "az group delete --name prod-rg",
    "az vm delete -g rg-dev -n vm-sandbox --yes",
    "az storage blob delete-batch --account-name acme --source c --pattern '*.tmp'",
    "kubectl delete pod x -n dev",
    "kubectl delete deployment api -n staging",
    "kubectl delete pods --all=false -n dev",
    "kubectl delete -f k8s/",
    "helm uninstall api -n production",
    "argocd app delete shop",
    "argocd app delete shop --cascade=false --yes",
    "fly apps destroy acme-api",
    "supabase storage rm -r ss:///avatars --linked",
    "supabase storage rm ss:///avatars/u1.png --linked --yes",
    "npm unpublish @acme/ui@2.3.0",
    "npm unpublish @acme/ui@2.3.0 --force",
    "rclone sync ./dist gdrive:site",
    "rclone delete --min-age 30d gdrive:ML",
    "s5cmd rm 's3://acme-ml-data/old/*'",
    "npm unpublish -f",
    "aws s3 sync ./dist s3://acme-www --delete",
    "mkdir -p out && cp -r dist/. out && aws s3 sync out s3://acme-www --delete",
    "mkdir -p e && azcopy sync e 'https://a.blob.core.windows.net/c' --delete-destination=prompt",
    "mkdir -p /tmp/e && rclone sync /tmp/e gdrive:ML --max-delete 10",
    "kubectl delete -i pvc training-data -n ml",
    "gh release delete v2.4.0 --cleanup-tag",  # gh still asks
    "gh release delete v2.4.0 -y",  # the tag stays
    "gh release delete-asset v2.4.0 app.tar.gz -y",
    "gh release create v2.0.0 --generate-notes",
    "glab release delete v2.4.0 --yes",
    "hf repo delete me/sentiment --repo-type model",
    "render postgres delete acme-staging-db",  # render still asks
    "firebase firestore:delete --all-collections",  # firebase still asks
    "firebase firestore:delete -r users/abc --force",  # one path, not every collection
]

UNCHANGED_FREE = [
    "terraform plan -destroy",
    "terraform plan -destroy -out=destroy.tfplan",
    "aws s3 ls",
    "aws s3 ls s3://acme-prod-backups --recursive",
    "kubectl get ns",
    "kubectl delete ns staging --dry-run=client",
    "aws s3 rm s3://acme-prod-backups --recursive --dryrun",
    "rclone purge onedrive:Documents --dry-run",
    "rclone purge onedrive:Documents -n",
    "pulumi preview --destroy --stack prod",
    "mkdir -p /tmp/e && gsutil rsync -rdn /tmp/e gs://b/out",
    "kubectl get pvc -n ml",
    "kubectl delete pvc training-data -n ml --dry-run=client",
    "gh release list --limit 10",
]


@pytest.mark.parametrize("line", DENIED)
def test_wholesale_destroy_denied(verdict: Judge, line: str) -> None:
    got = verdict(line)
    assert (got.decision, got.rule) == ("deny", RULE), line


@pytest.mark.parametrize("line", ASKED)
def test_single_or_still_confirmed_asked(verdict: Judge, line: str) -> None:
    got = verdict(line)
    assert got.decision == "ask", (line, got.rule)
    assert got.rule != RULE


@pytest.mark.parametrize("line", UNCHANGED_FREE)
def test_plans_listings_and_dry_runs_stay_free(verdict: Judge, line: str) -> None:
    assert verdict(line).decision in (None, "allow"), line


def test_unknown_cli_and_empty_words() -> None:
    assert not wipes("terraformer", ("destroy", "-auto-approve"))
    assert not wipes("kubectl", ())
    assert not wipes("npx", ("--yes",))


def test_protection_switched_off_elsewhere_in_the_command() -> None:
    args = ("rds", "delete-db-instance", "--db-instance-identifier", "p")
    assert not wipes("aws", args)
    assert wipes("aws", args, protection_off=True)


def test_settings_in_the_environment() -> None:
    assert wipes("terraform", ("destroy",), ("TF_CLI_ARGS=-auto-approve -lock=false",))
    assert not wipes("terraform", ("destroy",), ("TF_CLI_ARGS=-lock=false",))
    assert not wipes("pulumi", ("destroy",), ("PULUMI_SKIP_CONFIRMATIONS=false",))
    assert not wipes("gcloud", ("projects", "delete", "x"), ("TF_CLI_ARGS=-auto-approve",))
