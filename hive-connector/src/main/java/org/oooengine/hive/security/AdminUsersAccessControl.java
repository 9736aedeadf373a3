package org.oooengine.hive.security;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.hive.sql.SessionUser;
import org.oooengine.core.settings.CoordinatorSettings;

/**
 * The built-in policy, after Hive's {@code hive.users.in.admin.role}: the users the coordinator
 * setting {@link #ADMIN_USERS_SETTING} names may create, drop, insert and load; every other user
 * reads. An admin must have logged in with a password. An endpoint that checks no passwords
 * cannot tell its clients apart: there every client is the one local user and may do everything,
 * unless admin users are named, in which case no one may change anything.
 */
public final class AdminUsersAccessControl implements AccessControl {
    private static final Logger LOG = LogManager.getLogger(AdminUsersAccessControl.class);
    /** Coordinator setting: users of the password file who may change tables (comma separated). */
    public static final String ADMIN_USERS_SETTING = CoordinatorSettings.SECURITY_ADMIN_USERS.name();

    private final Set<String> admins;

    public AdminUsersAccessControl(Set<String> admins) {
        this.admins = Set.copyOf(admins);
    }

    /** The admin users the coordinator's settings name; none when they name none. */
    public static AdminUsersAccessControl fromSettings(Map<String, String> settings) {
        Set<String> admins = new TreeSet<>();
        admins.addAll(CoordinatorSettings.SECURITY_ADMIN_USERS.get(settings));
        if (!admins.isEmpty()) {
            LOG.info("admin users, who may create, drop, insert, update, delete and load: {}", admins);
        }
        return new AdminUsersAccessControl(admins);
    }

    @Override
    public void checkCanCreateDatabase(SessionUser user, String database) {
        requireAdmin(user, "CREATE DATABASE", database);
    }

    @Override
    public void checkCanDropDatabase(SessionUser user, String database) {
        requireAdmin(user, "DROP DATABASE", database);
    }

    @Override
    public void checkCanCreateTable(SessionUser user, String database, String table) {
        requireAdmin(user, "CREATE TABLE", database + "." + table);
    }

    @Override
    public void checkCanDropTable(SessionUser user, String database, String table) {
        requireAdmin(user, "DROP TABLE", database + "." + table);
    }

    @Override
    public void checkCanInsert(SessionUser user, String database, String table) {
        requireAdmin(user, "INSERT into", database + "." + table);
    }

    @Override
    public void checkCanUpdate(SessionUser user, String database, String table) {
        requireAdmin(user, "UPDATE", database + "." + table);
    }

    @Override
    public void checkCanDelete(SessionUser user, String database, String table) {
        requireAdmin(user, "DELETE from", database + "." + table);
    }

    @Override
    public void checkCanLoad(SessionUser user, String database, String table, String path) {
        requireAdmin(user, "LOAD DATA into", database + "." + table);
    }

    /** Every user may SET what the engine lets a session set. */
    @Override
    public void checkCanSetSetting(SessionUser user, String key, String value) {
    }

    /**
     * A user of {@link #ADMIN_USERS_SETTING} who logged in with a password: on an endpoint that
     * checks none, no one, since any client could give the name.
     */
    @Override
    public boolean isAdmin(SessionUser user) {
        return user.login() == SessionUser.Login.PASSWORD && admins.contains(user.name());
    }

    private void requireAdmin(SessionUser user, String action, String object) {
        String why = switch (user.login()) {
            case PASSWORD -> admins.contains(user.name()) ? null : admins.isEmpty()
                    ? "no user may change tables until the operator names admin users in " + ADMIN_USERS_SETTING
                    : "only the admin users of " + ADMIN_USERS_SETTING + " may";
            case ANONYMOUS -> "it logged in without a password; only admin users who log in with one may";
            case UNCHECKED -> admins.isEmpty() ? null : ADMIN_USERS_SETTING + " names admin users, but this endpoint "
                    + "checks no passwords (ooo server --users-file), so it cannot tell who " + user.name() + " is";
        };
        if (why != null) {
            throw AccessDeniedException.of(user.name(), action, object, why);
        }
    }
}
