"""The one JSON call the benchmark helpers make to a local Parla server."""
import json
import urllib.request


def call(port, method, path, body=None, token=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request) as reply:
        return json.loads(reply.read() or b"{}")
