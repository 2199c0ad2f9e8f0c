"""A Java service's admin endpoints, a robot's limits and commands, a mailing's opt-outs
and a route's sign-in: what each rule holds for, and the everyday calls beside it that stay
free (neither asked nor denied)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import decided, edit, tool_decided

_PROJECT = "/home/dev/project"


def _write(path: str, content: str) -> dict[str, Any]:
    return {"file_path": f"{_PROJECT}/{path}", "content": content}


@pytest.mark.parametrize(
    ("command", "found"),
    [("curl -s -u actuator:$P -o x.hprof https://orders.prod.example.com/actuator/heapdump",
      ("deny", "service-admin-memory-dump")),
     ("curl -s https://orders.prod.example.com/actuator/env",
      ("ask", "service-admin-settings-read")),
     ("curl -s -X POST https://orders.prod.example.com/actuator/shutdown",
      ("ask", "service-admin-change")),
     ("curl -s -u d:$P 'https://tomcat-1.example.com/manager/text/undeploy?path=/orders'",
      ("ask", "service-admin-change")),
     ("curl -s -X POST -d '{\"configuredLevel\":\"TRACE\"}' "
      "https://o.prod.example.com/actuator/loggers/ROOT", ("ask", "service-admin-log-level")),
     ("/opt/wildfly/bin/jboss-cli.sh --connect --controller=remote+https://wf.example.com:9993 "
      "--command=':shutdown'", ("ask", "app-server-remote-admin")),
     ("java -jar target/orders.jar --spring.profiles.active=prod "
      "--spring.jpa.hibernate.ddl-auto=create-drop", ("deny", "schema-recreated-production")),
     ("mvn nexus-staging:drop -DstagingRepositoryId=comacme-1042", ("ask", "publish-package")),
     ("cat /etc/orders/ssl/keystore.pass", ("deny", "credential-read")),
     ("aws ses set-identity-notification-topic --identity acme.io --notification-type Bounce",
      ("ask", "cloud-change")),
     ("ros2 topic pub -r 10 /cmd_vel geometry_msgs/msg/Twist '{linear: {x: 2.5}}'",
      ("ask", "robot-command-sent")),
     ("ros2 service call /safety/estop_bypass std_srvs/srv/SetBool '{data: true}'",
      ("ask", "robot-command-sent")),
     ("ros2 lifecycle set /collision_monitor deactivate", ("ask", "robot-command-sent")),
     ("ros2 run zenoh_bridge_ros2dds zenoh_bridge_ros2dds -e tcp/198.51.100.9:7447",
      ("ask", "robot-topics-bridged")),
     ("curl -sL http://198.51.100.23/fw.elf -o /tmp/fw.elf && odrivetool dfu /tmp/fw.elf",
      ("ask", "motor-controller-firmware"))],
)  # fmt: skip
def test_service_admin_robot_commands_and_firmware_are_guarded(
    command: str, found: tuple[str, str]
) -> None:
    assert decided(command) == found


@pytest.mark.parametrize(
    "command",
    ["curl -s https://orders.prod.example.com/actuator/health",
     "curl -s http://localhost:8080/actuator/heapdump -o build/heap.hprof",
     "curl -s https://o.prod.example.com/actuator/loggers/ROOT",
     "java -jar target/product-svc.jar --spring.profiles.active=dev "
     "--spring.jpa.hibernate.ddl-auto=create-drop",
     "ros2 topic echo /odom --once",
     "ros2 param get /velocity_smoother max_velocity",
     "ros2 node info /controller_server",
     "gz topic -l && gz topic -e -t /world/warehouse/clock -n 1",
     "ros2 bag play bags/run_42 -l --remap /cmd_vel:=/cmd_vel_recorded"],
)  # fmt: skip
def test_everyday_service_and_robot_calls_stay_free(command: str) -> None:
    assert decided(command)[0] not in ("deny", "ask"), command


@pytest.mark.parametrize(
    ("tool", "given", "found"),
    [("Edit", edit("config/velocity_limits.yaml", "max_linear_velocity: 1.2  # certified",
                    "max_linear_velocity: 3.5"), ("ask", "safety-limit-weakened")),
     ("Edit", edit("urdf/arm.urdf.xacro", '<limit lower="-3.14" upper="3.14" effort="150.0"/>',
                    '<limit lower="-3.14" upper="3.14" effort="1000.0"/>'),
      ("ask", "safety-limit-weakened")),
     ("Edit", edit("src/safety_node.cpp", "  if (estop_active_) {\n    stop();\n  }",
                    "  // if (estop_active_) {\n  //   stop();\n  // }"),
      ("ask", "safety-limit-weakened")),
     ("Edit", edit("firmware/src/safety.c", "#define ESTOP_INPUT_ENABLED 1",
                    "#define ESTOP_INPUT_ENABLED 0"), ("ask", "safety-limit-weakened")),
     ("Edit", edit("config/twist_mux.yaml", "locks:\n  estop:\n    topic: /safety/estop\n",
                    "locks: {}\n"), ("ask", "safety-limit-weakened")),
     ("Edit", edit("deploy/cyclonedds.xml", '<NetworkInterface name="enp3s0"/>',
                    '<Peers><Peer address="relay.example.com"/></Peers>'),
      ("ask", "safety-limit-weakened")),
     ("Write", _write("config/joint_limits.yaml",
                      "joint_limits:\n  wheel:\n    has_velocity_limits: false\n"),
      ("ask", "safety-limit-weakened")),
     ("Edit", edit("test/test_speed_limits.py", "def test_max_speed_clamped(limiter):",
                    "@pytest.mark.skip(reason='flaky')\ndef test_max_speed_clamped(limiter):"),
      ("ask", "safety-limit-weakened")),
     ("Edit", edit("src/webhooks/postmark.js",
                    "router.post('/hook', basicAuth({ users }), handle);",
                    "router.post('/hook', handle);"), ("ask", "auth-weakened")),
     ("Edit", edit("app/email/marketing.py",
                    'headers = {"List-Unsubscribe": f"<{url}>"}', "headers = {}"),
      ("ask", "consent-weakened")),
     ("Edit", edit("app/email/campaigns.py",
                    "if user.email_opt_out:\n            continue", "# everyone"),
      ("ask", "consent-weakened")),
     ("Write", _write("config/mail.production.yml", "provider: ses\nhonor_unsubscribes: false\n"),
      ("ask", "consent-weakened")),
     ("Edit", edit("src/main/java/com/acme/HttpConfig.java", "return HttpClient.newHttpClient();",
                    "TrustManager[] all = { new X509TrustManager() {\n"
                    "    public void checkServerTrusted(X509Certificate[] c, String a) {}\n"
                    "}};\nreturn HttpClient.newBuilder().sslContext(ctx).build();"),
      ("ask", "protection-switched-off")),
     ("Edit", edit("src/main/java/com/acme/HttpConfig.java", "return HttpClient.newHttpClient();",
                    "HttpsURLConnection.setDefaultHostnameVerifier((h, s) -> true);"),
      ("ask", "protection-switched-off")),
     # a test skipped whatever the platform: it passes from now on (guard/gates.py)
     ("Edit", edit("tests/test_export.py", "def test_csv_export(tmp_path):",
                    "@pytest.mark.skip(reason='flaky')\ndef test_csv_export(tmp_path):"),
      ("ask", "project-gate-lowered")),
     # everyday: a limit tuned a little, a stop renamed, a peer on the local network, a
     # test skipped on one platform, a route's handler renamed
     ("Edit", edit("config/velocity_limits.yaml", "max_linear_velocity: 1.2",
                    "max_linear_velocity: 1.4"), ("allow", "edit-workspace")),
     ("Edit", edit("deploy/cyclonedds.xml", '<NetworkInterface name="enp3s0"/>',
                    '<Peers><Peer address="192.168.10.7"/></Peers>'), ("allow", "edit-workspace")),
     ("Edit", edit("tests/test_export.py", "def test_csv_export(tmp_path):",
                    "@pytest.mark.skipif(sys.platform == 'win32', reason='paths')\n"
                    "def test_csv_export(tmp_path):"), ("allow", "edit-workspace")),
     ("Edit", edit("src/webhooks/postmark.js",
                    "router.post('/hook', basicAuth({ users }), handle);",
                    "router.post('/hook', basicAuth({ users }), handlePostmark);"),
      (None, None))],
)  # fmt: skip
def test_limits_stops_opt_outs_and_gates(
    tool: str, given: dict[str, Any], found: tuple[str | None, str | None]
) -> None:
    assert tool_decided(tool, given) == found


@pytest.mark.parametrize(
    ("tool", "given", "found"),
    [("mcp__ros-mcp-server__pub_twist", {"linear": [0.3, 0, 0], "angular": [0, 0, 0]},
      ("ask", "mcp-tool-acts-on-home")),
     ("mcp__ros2__ros2_service_call", {"service_name": "/collision_monitor/change_state",
                                       "service_type": "lifecycle_msgs/srv/ChangeState"},
      ("ask", "mcp-tool-acts-on-home")),
     ("mcp__ros-mcp-server__get_topics", {}, (None, None)),
     ("mcp__ros-mcp-server__subscribe_once", {"topic": "/odom"}, (None, None)),
     ("mcp__bigquery__execute-query", {"query": "DROP TABLE `acme-prod.crm.contacts`;"},
      ("deny", "database-wipe-production")),
     ("mcp__bigquery__execute-query",
      {"query": "DELETE FROM `acme-prod.crm.contacts` WHERE contact_id = 1;"},
      ("ask", "database-change-production")),
     ("mcp__bigquery__execute-query", {"query": "SELECT count(*) FROM `acme-prod.crm.orders`"},
      (None, None)),
     ("WebFetch", {"url": "https://orders.prod.example.com/actuator/env", "prompt": "list"},
      ("ask", "service-admin-settings-read"))],
)  # fmt: skip
def test_robot_and_warehouse_mcp_servers(
    tool: str, given: dict[str, Any], found: tuple[str | None, str | None]
) -> None:
    assert tool_decided(tool, given) == found
