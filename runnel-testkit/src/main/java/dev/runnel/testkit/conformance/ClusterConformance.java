package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.ClientRow;
import dev.runnel.LeaderRow;
import dev.runnel.Runnel;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientListDeadParams;
import dev.runnel.driver.ClientStopParams;
import dev.runnel.driver.Driver;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.LeaderResignParams;
import dev.runnel.driver.Lease;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.ForwardingDriver;
import dev.runnel.testkit.KillableDriver;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Clients registering and heartbeating, and the leader's lease: taken, renewed, lost, given up. */
public abstract class ClusterConformance extends DriverConformance {

    private boolean elect(String id, Duration lease) {
        return driver.leaderAttemptElect(new LeaderElectParams(id, clock.instant(), clock.instant().plus(lease)));
    }

    @Test
    void theLeaseGoesToOneClientIsRenewedByItAndTakenOverOnceItEnds() {
        assertThat(driver.leaderGet()).isEmpty();
        assertThat(elect("a", Duration.ofSeconds(10))).isTrue();
        assertThat(elect("b", Duration.ofSeconds(10))).isFalse();
        clock.advance(Duration.ofSeconds(5));
        assertThat(elect("a", Duration.ofSeconds(10))).isTrue();
        LeaderRow renewed = driver.leaderGet().orElseThrow();
        assertThat(renewed.leaderId()).isEqualTo("a");
        assertThat(renewed.electedAt()).isEqualTo(T0);
        assertThat(renewed.expiresAt()).isEqualTo(T0.plusSeconds(15));
        clock.advance(Duration.ofSeconds(9));
        assertThat(elect("b", Duration.ofSeconds(10))).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(elect("b", Duration.ofSeconds(10))).isTrue();
        assertThat(driver.leaderGet().orElseThrow()).isEqualTo(new LeaderRow("b", clock.instant(),
                clock.instant().plusSeconds(10)));
        // The old leader, resuming, cannot renew what it lost, nor give it up.
        assertThat(elect("a", Duration.ofSeconds(10))).isFalse();
        driver.leaderResign(new LeaderResignParams("a"));
        assertThat(driver.leaderGet().orElseThrow().leaderId()).isEqualTo("b");
        driver.leaderResign(new LeaderResignParams("b"));
        assertThat(driver.leaderGet()).isEmpty();
        assertThat(elect("a", Duration.ofSeconds(10))).isTrue();
    }

    @Test
    void heartbeatsRegisterAndRenewClientsAndAStopExpiresOneAtOnce() {
        driver.clientHeartbeat(new ClientHeartbeatParams("a", T0, T0.plusSeconds(10), "{\"host\":\"h\"}"));
        clock.advance(Duration.ofSeconds(3));
        driver.clientHeartbeat(new ClientHeartbeatParams("a", clock.instant(), clock.instant().plusSeconds(10), "{}"));
        driver.clientHeartbeat(new ClientHeartbeatParams("b", clock.instant(), clock.instant().plusSeconds(10), "{}"));
        assertThat(driver.clientList()).extracting(ClientRow::id).containsExactly("a", "b");
        ClientRow a = driver.clientList().getFirst();
        assertThat(a.startedAt()).isEqualTo(T0);
        assertThat(a.heartbeatAt()).isEqualTo(T0.plusSeconds(3));
        assertThat(a.expiresAt()).isEqualTo(T0.plusSeconds(13));
        assertThat(a.stoppedAt()).isEmpty();
        assertThat(a.aliveAt(clock.instant())).isTrue();
        assertThat(driver.clientListDead(new ClientListDeadParams(clock.instant()))).isEmpty();

        driver.clientStop(new ClientStopParams("b", clock.instant()));
        ClientRow b = driver.clientList().get(1);
        assertThat(b.stoppedAt()).contains(clock.instant());
        assertThat(b.aliveAt(clock.instant())).isFalse();
        // Stopped clients are listed for the rescuer too: a job may have ignored the stop.
        assertThat(driver.clientListDead(new ClientListDeadParams(clock.instant()))).containsExactly("b");
        clock.advance(Duration.ofSeconds(20));
        assertThat(driver.clientListDead(new ClientListDeadParams(clock.instant()))).containsExactly("b", "a");
    }

    @Test
    void clientsGoneForLongAreRemovedOnlyOnceRescuedAndOnlyByTheLeader() {
        driver.clientHeartbeat(new ClientHeartbeatParams("gone", T0, T0.plusSeconds(10), "{}"));
        driver.clientHeartbeat(new ClientHeartbeatParams("unrescued", T0, T0.plusSeconds(10), "{}"));
        driver.clientHeartbeat(new ClientHeartbeatParams("recent", T0, T0.plusSeconds(18), "{}"));
        assertThat(elect("leader", Duration.ofDays(1))).isTrue();
        clock.advance(Duration.ofSeconds(20));
        driver.clientMarkRescued(new dev.runnel.driver.ClientRescuedParams(new Lease("leader", clock.instant()),
                java.util.List.of("gone", "recent")));
        assertThat(driver.clientDeleteExpired(new ClientDeleteParams(new Lease("impostor", clock.instant()),
                T0.plusSeconds(15)))).isZero();
        assertThat(driver.clientDeleteExpired(new ClientDeleteParams(new Lease("leader", clock.instant()),
                T0.plusSeconds(15)))).isEqualTo(1);
        assertThat(driver.clientList()).extracting(ClientRow::id).containsExactly("recent", "unrescued");
    }

    @Test
    void aStartedClientRegistersLeadsAndAtStopResignsAndSaysSo() {
        Runnel runnel = started(client().clientId("solo"));
        Await.until("the lone client to lead", runnel::isLeader);
        assertThat(runnel.leader().orElseThrow().leaderId()).isEqualTo("solo");
        assertThat(runnel.clients()).singleElement().satisfies(c -> {
            assertThat(c.id()).isEqualTo("solo");
            assertThat(c.metadata()).contains("\"pid\"");
            assertThat(c.aliveAt(clock.instant())).isTrue();
        });
        runnel.stop(Duration.ofSeconds(1));
        assertThat(runnel.isLeader()).isFalse();
        assertThat(driver.leaderGet()).isEmpty();
        assertThat(driver.clientList()).singleElement().satisfies(c -> assertThat(c.stoppedAt()).contains(T0));
    }

    @Test
    void whenTheLeaderStopsAnotherClientTakesOver() {
        Runnel first = started(client().clientId("first"));
        Await.until("the first client to lead", first::isLeader);
        Runnel second = started(client().clientId("second"));
        first.stop(Duration.ofSeconds(1));
        Await.until("the second client to lead", Duration.ofSeconds(5), second::isLeader);
        assertThat(driver.leaderGet().orElseThrow().leaderId()).isEqualTo("second");
    }

    @Test
    void aFollowerOnlyReadsTheLeaseWhileItIsHeldAndAsksForItOnceItIsFree() {
        Runnel first = started(client().clientId("first"));
        Await.until("the first client to lead", first::isLeader);
        AtomicInteger asked = new AtomicInteger();
        AtomicInteger read = new AtomicInteger();
        Driver counting = new ForwardingDriver(driver) {
            @Override
            public boolean leaderAttemptElect(LeaderElectParams params) {
                asked.incrementAndGet();
                return super.leaderAttemptElect(params);
            }

            @Override
            public Optional<LeaderRow> leaderGet() {
                read.incrementAndGet();
                return super.leaderGet();
            }
        };
        Runnel second = started(client().driver(counting).clientId("second"));
        Await.until("the follower to read the lease three times", () -> read.get() >= 3);
        assertThat(asked).as("elections the follower asked for while the lease was held").hasValue(0);
        assertThat(second.isLeader()).isFalse();
        first.stop(Duration.ofSeconds(1));
        Await.until("the follower to lead once the lease is given up", Duration.ofSeconds(5), second::isLeader);
        assertThat(asked.get()).isPositive();
    }

    @Test
    void whenTheLeaderDiesAnotherTakesOverWithinAboutTheLease() {
        KillableDriver cut = new KillableDriver(driver);
        Runnel first = started(client().driver(cut).clientId("first"));
        Await.until("the first client to lead", first::isLeader);
        Runnel second = started(client().clientId("second"));
        cut.kill();
        // The dead leader's lease runs out by the cluster's clock...
        clock.advance(Duration.ofSeconds(1));
        long since = System.nanoTime();
        Await.until("the second client to lead", Duration.ofSeconds(10), second::isLeader);
        // ...and the dead one stops counting itself leader by its own (monotonic) clock.
        Await.until("the dead client to stop leading", Duration.ofSeconds(5), () -> !first.isLeader());
        // Test leases are 1 s: the takeover comes at the survivor's next attempt, a third of it later.
        assertThat(Duration.ofNanos(System.nanoTime() - since)).isLessThan(Duration.ofSeconds(2));
        cut.revive();
    }
}
