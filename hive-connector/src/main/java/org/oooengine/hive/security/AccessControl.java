package org.oooengine.hive.security;

import org.oooengine.hive.sql.SessionUser;

/**
 * Who may change what, asked before every statement that creates, drops or writes, and every
 * {@code SET}; reading is allowed to every user who got in. Each check returns when the user may,
 * and throws an {@link AccessDeniedException} naming the user, the action and the object when not.
 * An implementation decides every check: none is allowed by default.
 */
public interface AccessControl {
    void checkCanCreateDatabase(SessionUser user, String database);

    /** DROP DATABASE, with CASCADE also its tables. */
    void checkCanDropDatabase(SessionUser user, String database);

    /** CREATE TABLE, also ... AS SELECT. */
    void checkCanCreateTable(SessionUser user, String database, String table);

    void checkCanDropTable(SessionUser user, String database, String table);

    /** INSERT INTO or OVERWRITE. */
    void checkCanInsert(SessionUser user, String database, String table);

    /** UPDATE of rows in place. */
    void checkCanUpdate(SessionUser user, String database, String table);

    /** DELETE of rows in place. */
    void checkCanDelete(SessionUser user, String database, String table);

    /** LOAD DATA of the files at {@code path}; the engine then checks the path against the directories it may read. */
    void checkCanLoad(SessionUser user, String database, String table, String path);

    /** {@code SET key=value}, also as a setting the client gives when it opens the session. */
    void checkCanSetSetting(SessionUser user, String key, String value);

    /**
     * Whether {@code user} is an admin, whom the operator may let set resource limits past the
     * coordinator's caps ({@code ooo.security.admins-exceed-caps}); no one unless a policy says so.
     */
    default boolean isAdmin(SessionUser user) {
        return false;
    }
}
