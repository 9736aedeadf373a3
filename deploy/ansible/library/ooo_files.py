#!/usr/bin/python
# Directories and small files of a host in one module call: one round trip per host where
# ansible.builtin.file, copy and template take one per path (and a second when they write).

DOCUMENTATION = r"""
module: ooo_files
short_description: Directories and small files in one go
description:
  - Makes each directory and writes each file whose content, owner, group or mode differs from what
    is asked, and reports the paths it changed. Files are written whole (a temporary file renamed
    over the old one). Directories come first, so files may go into them. Supports check mode.
options:
  directories:
    description: Directories, each a dict of path, and optionally owner, group, mode (octal string, default 0755).
    type: list
    elements: dict
    default: []
  files:
    description: Files, each a dict of path, content, and optionally owner, group, mode (default 0644).
    type: list
    elements: dict
    default: []
"""

RETURN = r"""
changed_paths:
  description: The directories and files that were made, written or given another owner or mode.
  type: list
  elements: str
"""

import grp
import os
import pwd
import tempfile

from ansible.module_utils.basic import AnsibleModule


def wanted_ids(spec):
    uid = pwd.getpwnam(spec["owner"]).pw_uid if spec.get("owner") else -1
    gid = grp.getgrnam(spec["group"]).gr_gid if spec.get("group") else -1
    return uid, gid


def fix_attributes(path, uid, gid, mode, check_mode):
    """Gives path the owner, group and mode asked for; whether it had to."""
    st = os.lstat(path)
    changed = False
    if (uid != -1 and st.st_uid != uid) or (gid != -1 and st.st_gid != gid):
        changed = True
        if not check_mode:
            os.chown(path, uid, gid)
    if st.st_mode & 0o7777 != mode:
        changed = True
        if not check_mode:
            os.chmod(path, mode)
    return changed


def directory(spec, check_mode):
    path, mode = spec["path"], int(str(spec.get("mode") or "0755"), 8)
    uid, gid = wanted_ids(spec)
    if os.path.isdir(path):
        return fix_attributes(path, uid, gid, mode, check_mode)
    if not check_mode:
        os.makedirs(path)
        fix_attributes(path, uid, gid, mode, False)
    return True


def regular_file(spec, check_mode):
    path, mode = spec["path"], int(str(spec.get("mode") or "0644"), 8)
    content = spec["content"].encode("utf-8")
    uid, gid = wanted_ids(spec)
    try:
        with open(path, "rb") as f:
            same = f.read() == content
    except FileNotFoundError:
        same = False
    if same:
        return fix_attributes(path, uid, gid, mode, check_mode)
    if not check_mode:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".ooo_files.")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(content)
            fix_attributes(tmp, uid, gid, mode, False)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    return True


def main():
    module = AnsibleModule(
        argument_spec=dict(
            directories=dict(type="list", elements="dict", default=[]),
            files=dict(type="list", elements="dict", default=[]),
        ),
        supports_check_mode=True,
    )
    changed = []
    try:
        for spec in module.params["directories"]:
            if directory(spec, module.check_mode):
                changed.append(spec["path"])
        for spec in module.params["files"]:
            if regular_file(spec, module.check_mode):
                changed.append(spec["path"])
    except (OSError, KeyError, ValueError) as e:
        module.fail_json(msg="%s: %s" % (type(e).__name__, e), changed_paths=changed)
    module.exit_json(changed=bool(changed), changed_paths=changed)


if __name__ == "__main__":
    main()
