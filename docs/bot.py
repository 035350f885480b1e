"""A complete puerto bot: it opens a Puerto Rico game against two AI players, plays it to the
end from its event stream alone, and prints the result. Python's standard library only.

    PUERTO_TOKEN=puerto_… python docs/bot.py https://puerto.example

The token needs the scopes "play" and "create" (made on your page: Account → API tokens).
Its moves are random; ``choose`` is where a better bot starts. docs/api.md explains each call.
"""

import json
import os
import random
import sys
import urllib.error
import urllib.request


class Puerto:
    def __init__(self, site: str, token: str) -> None:
        self.site = site.rstrip("/")
        self.auth = {"Authorization": f"Bearer {token}"}
        self.requests = 0

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        headers = {**self.auth, "Content-Type": "application/json"}
        request = urllib.request.Request(self.site + path, data, headers, method=method)
        self.requests += 1
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)

    def events(self):
        """(kind, data) of each event of the user's stream, for ever: when the server ends
        the stream, connect again and say the last event seen (``Last-Event-ID``)."""
        last = None
        while True:
            headers = {**self.auth, "Accept": "text/event-stream"}
            if last:
                headers["Last-Event-ID"] = last
            request = urllib.request.Request(self.site + "/api/events/", headers=headers)
            self.requests += 1
            with urllib.request.urlopen(request, timeout=60) as stream:
                fields = {}
                for raw in stream:
                    line = raw.decode().rstrip("\r\n")
                    if line and not line.startswith(":"):  # ": …" keeps the line alive
                        name, _, value = line.partition(": ")
                        fields[name] = value
                    elif "event" in fields:  # a blank line ends an event
                        last = fields.get("id", last)
                        yield fields["event"], json.loads(fields["data"])
                        fields = {}


def placement(schema: dict) -> dict:
    """The mayor's choice: colonists on buildings first, then on plantations and quarries."""
    variant = schema["variants"][0]
    left = variant["colonists"]
    chosen = {}
    for part in ("city", "island"):
        chosen[part] = {}
        for name, circles in schema[part].items():
            chosen[part][name] = min(circles, left)
            left -= chosen[part][name]
    return {"type": "arrange", **chosen, "privilege": variant["privilege"]}


def choose(game: dict, rng: random.Random) -> dict:
    if game["legal_actions"] is None:  # the mayor phase: a schema, not a list
        return placement(game["legal_schema"])
    return rng.choice(game["legal_actions"])


def play(site: str, token: str, seed: int = 0) -> tuple[dict, int, int]:
    """Play one game; returns the finished game, the moves made and the requests sent."""
    puerto, rng, moves = Puerto(site, token), random.Random(seed), 0
    body = {"game": "puerto_rico", "num_players": 3, "seats": ["ai:easy", "ai:medium"]}
    game_id = puerto.call("POST", "/api/games/", body)["id"]
    for kind, game in puerto.events():
        if game.get("id") != game_id:
            continue  # another game's event, or a chat message
        if kind == "turn":
            move = {"action": choose(game, rng), "version": game["version"]}
            try:
                puerto.call("POST", f"/api/games/{game_id}/moves/", move)
                moves += 1
            except urllib.error.HTTPError as refusal:
                if refusal.code != 409:  # 409: the game moved on; its next event tells how
                    raise
        elif kind in ("finished", "cancelled"):
            return game, moves, puerto.requests  # leaving the loop closes the stream


if __name__ == "__main__":
    game, moves, requests = play(sys.argv[1], os.environ["PUERTO_TOKEN"])
    for seat in game["result"] or []:
        name = game["seats"][seat["seat"]]["name"]
        print(f"{seat['placement']}. {name}: {seat['score']} points")
    print(f"{moves} moves, {requests} requests")
