# Sourced by every command and daemon of this distribution before its defaults apply
# (see libexec/hadoop-config.sh for the variables). Deployments write their own.
# export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
# export HADOOP_LOG_DIR=/var/log/hadoop
# export HADOOP_PID_DIR=/var/run/hadoop
# export HADOOP_HEAPSIZE=1g
