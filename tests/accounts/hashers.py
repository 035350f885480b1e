"""A password hasher that counts its work, to see which requests never hash a password."""

from django.contrib.auth.hashers import Argon2PasswordHasher


class CountingArgon2PasswordHasher(Argon2PasswordHasher):
    """Django's Argon2 (same algorithm name, so existing hashes verify), counting each hash."""

    calls = 0

    def encode(self, password, salt):
        type(self).calls += 1
        return super().encode(password, salt)

    def verify(self, password, encoded):
        type(self).calls += 1
        return super().verify(password, encoded)
