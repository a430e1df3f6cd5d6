"""A command module that tests.plumbing.test_wsgi_cli loads lazily."""
import click


@click.command()
@click.option("--times", type=int, default=1)
def later(times):
    for _ in range(times):
        click.echo("later")
