from django.db import migrations

from moderation.groups import create_moderator_group, remove_moderator_group


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_audit_log_and_standing"),
        ("accounts", "0003_labels"),
        ("games", "0011_cancel_reason_and_moderation_emails"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_moderator_group, remove_moderator_group)]
