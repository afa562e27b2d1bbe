"""Marshmallow schemas: pre_load expands aliases and shorthands (running the
rule checks of each level on the way), post_load builds the frozen model."""
