"""The production compose file, Dockerfile and lock, checked by their structure (no container
engine runs here): what reaches the outside, the start order, health checks, pinned images."""

import re
import tomllib

import pytest
import yaml
from django.conf import settings

BASE = settings.BASE_DIR
COMPOSE = BASE / "docker-compose.yml"
DOCKERFILE = BASE / "Dockerfile"
LOCK = BASE / "requirements.lock"
SITE_SERVICES = ["migrate", "web", "events", "worker", "reviewer", "beat"]
PUBLIC_PORTS = {"80:80", "443:443", "443:443/udp"}


def load_compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def services() -> dict:
    return load_compose()["services"]


def caddyfile() -> str:
    config = load_compose()["configs"]
    (proxy_config,) = services()["proxy"]["configs"]
    assert proxy_config["target"] == "/etc/caddy/Caddyfile"
    return (BASE / config[proxy_config["source"]]["file"]).read_text()


def test_only_the_proxy_publishes_ports_to_the_outside():
    """The mail catcher shows every verification link and web trusts X-Forwarded-For: both
    must be out of reach but through the proxy (80 and 443)."""
    published = {name: s.get("ports", []) for name, s in services().items()}

    assert set(published.pop("proxy")) == PUBLIC_PORTS
    assert published["web"] and published["mail"]  # still reachable from the host itself
    for name, ports in published.items():
        for port in ports:
            assert str(port).startswith("127.0.0.1:"), f"{name} publishes {port} to every address"


def test_the_proxy_is_caddy_with_tls_for_the_site_address_sending_streams_to_events():
    proxy = services()["proxy"]
    text = caddyfile()
    site_block = re.search(r"^\{\$SITE_ADDRESS\} \{$(.*)^\}$", text, re.MULTILINE | re.DOTALL)
    events = re.search(r"handle @events \{(.*?)\n\t\}", site_block.group(1), re.DOTALL).group(1)

    assert re.fullmatch(r"caddy:2\.\d+\.\d+", proxy["image"])
    assert proxy["environment"]["SITE_ADDRESS"] == "${SITE_ADDRESS}"
    assert "@events path /api/events/ /api/games/*/events/" in text
    assert "reverse_proxy events:8001" in events and "flush_interval -1" in events
    assert re.search(r"handle \{\s*reverse_proxy web:8000\s*\}", site_block.group(1))
    assert {"caddydata:/data", "caddyconfig:/config"} <= set(proxy["volumes"])


def test_migrations_run_once_before_every_part_of_the_site():
    every = services()
    migrate = every["migrate"]

    assert migrate["command"] == "python manage.py migrate --noinput"
    assert migrate["restart"] == "no"
    assert "migrate" not in migrate["depends_on"]
    for name in SITE_SERVICES[1:]:
        assert every[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }, name
        assert "migrate" not in str(every[name]["command"]), name


def test_the_proxy_waits_for_healthy_web_and_events():
    depends = services()["proxy"]["depends_on"]

    assert depends["web"]["condition"] == depends["events"]["condition"] == "service_healthy"


def test_workers_and_beat_are_checked_by_the_age_of_their_liveness_file():
    every = services()
    path = every["worker"]["environment"]["PUERTO_LIVENESS_FILE"]

    for name in ("worker", "reviewer", "beat"):
        check = " ".join(every[name]["healthcheck"]["test"])
        assert every[name]["environment"]["PUERTO_LIVENESS_FILE"] == path
        assert f"find {path} -mmin -2" in check, name
        assert "inspect ping" not in check and "kill -0" not in check, name
    assert "--scheduler puerto.liveness:BeatScheduler" in every["beat"]["command"]


@pytest.mark.parametrize(
    ("service", "grace"),
    [("worker", "120s"), ("reviewer", "120s"), ("web", "30s"), ("events", "30s")],
)
def test_stops_leave_time_to_finish_a_task_or_a_request(service, grace):
    assert services()[service]["stop_grace_period"] == grace


def test_every_service_rotates_its_log():
    for name, service in services().items():
        logging = service.get("logging", {})
        assert logging.get("driver") == "json-file", name
        assert {"max-size", "max-file"} <= logging.get("options", {}).keys(), name


def test_every_image_is_pinned_to_a_release():
    for name, service in services().items():
        image = service["image"]
        if image == "puerto:latest":  # built here from the Dockerfile
            assert "build" in service, name
            continue
        repository, _, tag = image.rpartition(":")
        # PostgreSQL's releases are major.minor (16.6); the others' major.minor.patch.
        release = r"\d+\.\d+" if repository == "postgres" else r"v?\d+\.\d+\.\d+"
        assert re.fullmatch(release, tag), f"{name} floats on {image}"


def test_the_database_password_is_passed_apart_from_the_url():
    """A password with ``@ : / #`` would break the URL it was pasted into."""
    environment = services()["web"]["environment"]

    assert environment["DATABASE_URL"] == "postgres://puerto@db:5432/puerto"
    assert environment["DATABASE_PASSWORD"] == "${POSTGRES_PASSWORD}"
    assert services()["db"]["environment"]["POSTGRES_PASSWORD"] == "${POSTGRES_PASSWORD}"


def requirement_name(text: str) -> str:
    """A requirement's normalised project name (PEP 503)."""
    name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", text).group(1)
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_lock_pins_every_runtime_dependency_with_hashes():
    project = tomllib.loads((BASE / "pyproject.toml").read_text())["project"]
    wanted = {requirement_name(dependency) for dependency in project["dependencies"]}
    lock = LOCK.read_text()
    pinned = dict(re.findall(r"^([A-Za-z0-9][\w.-]*)==(\S+) \\$", lock, re.MULTILINE))
    entries = re.split(r"\n(?=[A-Za-z0-9])", lock.split("\n\n", 1)[-1].strip())

    assert wanted <= {requirement_name(name) for name in pinned}
    assert pinned
    for entry in entries:
        if not entry.startswith("#"):
            assert "--hash=sha256:" in entry, entry.splitlines()[0]


def dockerfile_lines() -> list[str]:
    return [line.strip() for line in DOCKERFILE.read_text().splitlines()]


def test_the_image_installs_the_lock_before_copying_the_code():
    lines = dockerfile_lines()
    copy_lock = lines.index("COPY pyproject.toml requirements.lock ./")
    install_lock = lines.index("RUN pip install --require-hashes -r requirements.lock")
    copy_code = lines.index("COPY . .")
    install_project = lines.index("RUN pip install --no-deps -e .")

    assert copy_lock < install_lock < copy_code < install_project
    assert "collectstatic" in DOCKERFILE.read_text()


def test_the_code_in_the_image_belongs_to_root_and_only_var_to_the_site():
    text = DOCKERFILE.read_text()

    assert "chown -R" not in text and "--chown" not in text
    assert re.findall(r"chown (\S+)", text) == ["puerto:puerto"]
    assert "chown puerto:puerto /app/var" in text
    assert text.index("chown puerto:puerto /app/var") < text.index("USER puerto")


def test_the_image_leaves_out_what_only_development_needs():
    ignored = {
        line.strip()
        for line in (BASE / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }

    assert {".git", ".venv", "tests", "bench", "docs", ".env"} <= ignored
    needed = {"templates", "static", "locale", "manage.py", "pyproject.toml", "README.md"}
    needed |= {"gunicorn.conf.py", "requirements.lock", "puerto", "games", "accounts"}
    for kept in needed:
        assert (BASE / kept).exists(), kept
        assert not any(kept == pattern.strip("/*") for pattern in ignored), kept
