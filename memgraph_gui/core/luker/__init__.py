"""Luker's contract: the seed's Read, Write and external APIs, the session facade, Luker's file
format and import/export.
"""
