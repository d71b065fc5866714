from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("articles", "0002_team_member"),
    ]

    operations = [
        migrations.CreateModel(
            name="Attachment",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("title", models.CharField(max_length=200)),
                ("file", models.FileField(upload_to="attachments/")),
                ("original_filename", models.CharField(blank=True, max_length=255)),
                ("content_type", models.CharField(blank=True, max_length=255)),
                ("tags", models.JSONField(blank=True, default=list)),
                ("address", models.JSONField(blank=True, null=True)),
            ],
            options={"ordering": ["id"]},
        ),
    ]
