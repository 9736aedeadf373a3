# Makes directories on HDFS through the NameNode's WebHDFS API (no JVM per command), as its superuser:
#   python3 hdfs-directories.py http://namenode:9870 hadoop TIMEOUT path:owner:mode ...
# A directory that is there already is left as it is. Retries while the NameNode starts or is in safe
# mode (until its DataNodes have reported). Prints "created:" and the directories it made.
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

base, superuser, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])


def call(method, path, **params):
    query = urllib.parse.urlencode({"user.name": superuser, **params})
    request = urllib.request.Request(f"{base}/webhdfs/v1{path}?{query}", method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read()
        return json.loads(body) if body else None


def exists(path):
    try:
        call("GET", path, op="GETFILESTATUS")
        return True
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return False
        raise


made = []
deadline = time.time() + timeout
for spec in sys.argv[4:]:
    path, owner, mode = spec.split(":")
    while True:
        try:
            if not exists(path):
                call("PUT", path, op="MKDIRS")
                call("PUT", path, op="SETOWNER", owner=owner)
                call("PUT", path, op="SETPERMISSION", permission=mode)
                made.append(path)
            break
        except (urllib.error.URLError, ConnectionError) as e:
            if time.time() > deadline:
                sys.exit(f"{path}: {e} (for {timeout:.0f} s)")
            time.sleep(1)
print("created:" + "".join(" " + p for p in made))
