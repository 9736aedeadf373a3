/** HiveServer2-protocol endpoint and HiveQL front end (arrives with the Hive SQL work). */
package org.oooengine.hive;
