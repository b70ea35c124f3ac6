"""Dixit, the storytelling card game."""
