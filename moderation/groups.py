"""The moderator group: what a moderator may see and do, and nothing more (no superuser, no
editing of raw fields). Created by a data migration; ``docs/operations.md`` says how to add
someone to it."""

MODERATOR_GROUP = "moderator"
MODERATOR_PERMISSIONS = {
    # (app label, model): codenames
    ("moderation", "entry"): ("moderate", "view_entry"),
    ("games", "game"): ("view_game",),
    ("games", "seat"): ("view_seat",),
    ("games", "move"): ("view_move",),
    ("accounts", "user"): ("view_user",),
}
CUSTOM_PERMISSION_NAMES = {"moderate": "Can moderate games and players"}


def create_moderator_group(apps, schema_editor=None) -> None:
    """Create (or complete) the group with exactly its permissions. ``apps``: a migration's
    historical apps, or the live registry. Permissions that ``post_migrate`` has not created
    yet (a fresh database) are created here with the names Django would give them."""
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    ContentType = apps.get_model("contenttypes", "ContentType")
    permissions = []
    for (app_label, model), codenames in MODERATOR_PERMISSIONS.items():
        content_type, _ = ContentType.objects.get_or_create(app_label=app_label, model=model)
        verbose = apps.get_model(app_label, model)._meta.verbose_name_raw
        for codename in codenames:
            action = codename.split("_", 1)[0]
            name = CUSTOM_PERMISSION_NAMES.get(codename, f"Can {action} {verbose}")
            permission, _ = Permission.objects.get_or_create(
                content_type=content_type, codename=codename, defaults={"name": name}
            )
            permissions.append(permission)
    group, _ = Group.objects.get_or_create(name=MODERATOR_GROUP)
    group.permissions.set(permissions)


def remove_moderator_group(apps, schema_editor=None) -> None:
    apps.get_model("auth", "Group").objects.filter(name=MODERATOR_GROUP).delete()
