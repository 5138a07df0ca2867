"""The bundled demo memory generator."""
