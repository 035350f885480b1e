"""Sessions in the shared cache (written through to the database) whose first read also
fetches the signed-in user's cached row, so a signed-in request costs one cache round trip,
not two (the session, then the user: together about a tenth of the server's time under load).

Which user a session belongs to is learnt from the session itself, the first time a process
reads it, and kept in a bounded table of the process. A session key never changes hands:
signing in makes a new key and signing out deletes the old one. The backend
(``accounts.backends``) takes the row fetched here only for the user id the session holds, so
a wrong guess costs one read more and nothing else; the user's cache entry is the one that
every change of the user drops.
"""

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends import cached_db

from accounts.backends import prefetched_user, user_cache_key

KNOWN_SESSIONS = 50_000
"""How many session keys a process remembers the user of (a few MB)."""

_user_of_session: dict[str, str] = {}


class SessionStore(cached_db.SessionStore):
    def load(self):
        prefetched_user.set(None)
        user_id = None
        if self.session_key and settings.PUERTO_CACHE_USERS:
            user_id = _user_of_session.get(self.session_key)
        if user_id is None:
            data = super().load()
        else:
            user_key = user_cache_key(user_id)
            found = self._cache.get_many([self.cache_key, user_key])
            prefetched_user.set((user_id, found.get(user_key)))
            data = found.get(self.cache_key)
            if data is None:  # not cached: from the database, as cached_db does
                data = super().load()
        user_id = data.get(SESSION_KEY)
        if user_id is not None and self.session_key:
            if len(_user_of_session) >= KNOWN_SESSIONS:
                _user_of_session.clear()
            _user_of_session[self.session_key] = str(user_id)
        return data
