from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = []

    operations = [
        migrations.CreateModel(
            name="StoredResponse",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(max_length=255, unique=True)),
                ("path", models.CharField(max_length=2048)),
                ("status", models.IntegerField()),
                ("content_type", models.CharField(blank=True, max_length=255)),
                ("body", models.BinaryField()),
            ],
        ),
        migrations.CreateModel(
            name="CreateCount",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("path", models.CharField(max_length=2048, unique=True)),
                ("creates", models.IntegerField(default=0)),
                ("replays", models.IntegerField(default=0)),
            ],
        ),
    ]
