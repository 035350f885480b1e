"""The production compose file must stay valid without a Docker engine to try it on."""

import re

import yaml
from django.conf import settings

COMPOSE = settings.BASE_DIR / "docker-compose.yml"
ENV_EXAMPLE = settings.BASE_DIR / ".env.example"


def load_compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def test_compose_runs_every_part_of_puerto():
    services = load_compose()["services"]

    assert {"web", "worker", "beat", "db", "redis", "mail"} <= services.keys()
    assert "gunicorn" in str(services["web"]["command"])
    assert "worker" in str(services["worker"]["command"])
    assert "beat" in str(services["beat"]["command"])


def test_every_compose_service_has_a_healthcheck():
    services = load_compose()["services"]

    for name, service in services.items():
        assert service.get("healthcheck", {}).get("test"), f"{name} has no healthcheck"


def test_compose_volumes_are_named_and_declared():
    compose = load_compose()
    used = {
        volume.split(":")[0]
        for service in compose["services"].values()
        for volume in service.get("volumes", [])
    }

    assert used, "no service keeps data in a volume"
    assert used <= set(compose["volumes"])


def test_every_compose_variable_is_documented_in_env_example():
    referenced = set(re.findall(r"\$\{(\w+)", COMPOSE.read_text()))
    documented = set(re.findall(r"^(\w+)=", ENV_EXAMPLE.read_text(), flags=re.MULTILINE))

    assert referenced <= documented
