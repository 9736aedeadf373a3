package org.oooengine.hive.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.oooengine.hive.sql.SessionUser;

/** Who the built-in policy lets change tables, by how each user logged in and whom the operator named. */
class AdminUsersAccessControlTest {
    private static final SessionUser ANONYMOUS = new SessionUser("anonymous", SessionUser.Login.ANONYMOUS);

    private static String refusal(AccessControl rules, SessionUser user) {
        AccessDeniedException e = assertThrows(AccessDeniedException.class,
                () -> rules.checkCanCreateTable(user, "sales", "items"));
        assertEquals("42000", e.sqlState());
        return e.getMessage();
    }

    @Test
    void withAdminUsersOnlyTheyMayChangeTablesOnceTheirPasswordIsChecked() {
        AccessControl rules = AdminUsersAccessControl.fromSettings(Map.of(AdminUsersAccessControl.ADMIN_USERS_SETTING,
                " alice ,bob,"));
        rules.checkCanCreateTable(SessionUser.withPassword("alice"), "sales", "items");
        rules.checkCanLoad(SessionUser.withPassword("bob"), "sales", "items", "/data/items.csv");
        assertEquals("access denied: user carol may not CREATE TABLE sales.items: only the admin users of "
                + "ooo.security.admin-users may", refusal(rules, SessionUser.withPassword("carol")));
        assertEquals("access denied: user anonymous may not CREATE TABLE sales.items: it logged in without a password; "
                + "only admin users who log in with one may", refusal(rules, ANONYMOUS));
        assertEquals("access denied: user alice may not CREATE TABLE sales.items: ooo.security.admin-users names admin "
                        + "users, but this endpoint checks no passwords (ooo server --users-file), so it cannot tell "
                        + "who alice is", refusal(rules, SessionUser.unchecked("alice")));
        rules.checkCanSetSetting(SessionUser.withPassword("carol"), "ooo.execution.mode", "mapreduce");
    }

    @Test
    void withoutAdminUsersLoggedInUsersReadAndTheOneLocalUserMayDoAll() {
        AccessControl rules = AdminUsersAccessControl.fromSettings(Map.of());
        assertEquals("access denied: user alice may not CREATE TABLE sales.items: no user may change tables until "
                + "the operator names admin users in ooo.security.admin-users",
                refusal(rules, SessionUser.withPassword("alice")));
        refusal(rules, ANONYMOUS);
        SessionUser local = SessionUser.unchecked("anyone");
        rules.checkCanCreateDatabase(local, "sales");
        rules.checkCanCreateTable(local, "sales", "items");
        rules.checkCanInsert(local, "sales", "items");
        rules.checkCanLoad(local, "sales", "items", "/data/items.csv");
        rules.checkCanDropTable(local, "sales", "items");
        rules.checkCanDropDatabase(local, "sales");
    }
}
